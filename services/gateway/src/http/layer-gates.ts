import type { Express } from 'express';
import { assertLayer, type Layer } from '@civicgraph/kit';
import { principalOf } from './request-context.js';

/** Where each plan-gated layer is (or will be) served. */
export const GATED_LAYER_PATHS: Readonly<Partial<Record<Layer, string>>> = {
  cypher: '/v1/cypher',
  agent: '/v1/agent',
  webhooks: '/v1/webhooks',
  bulk_export: '/v1/exports',
};

/**
 * The plan gate in front of every layer outside Explore, asked of the one policy
 * (`assertLayer`): an Explore key gets `plan_required` naming the layer, whatever the
 * method or sub-path, before any layer code runs. Layers that have not shipped yet fall
 * through to the 404 of an unknown endpoint.
 */
export function layerGates(app: Express): void {
  for (const [layer, path] of Object.entries(GATED_LAYER_PATHS) as [Layer, string][]) {
    app.use(path, (_req, res, next) => {
      assertLayer(principalOf(res), layer);
      next();
    });
  }
}
