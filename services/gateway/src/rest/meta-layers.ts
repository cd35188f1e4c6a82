import { layerAllowed, type Layer } from '@civicgraph/kit';
import type { Endpoint } from './endpoint.js';
import { P } from './schema/params.js';

/**
 * What each status word means. `data` says whether the layer's data is real and current;
 * `api` whether the layer can be called.
 */
export const LAYER_STATUS_MEANINGS = {
  live: 'Available now and kept current; covered by the compatibility promise of /v1.',
  beta: 'Available now; its shape may still change with notice.',
  planned: 'Not available yet; designed and scheduled.',
} as const;
type LayerStatus = keyof typeof LAYER_STATUS_MEANINGS;

/** The query layers of the interface spec and where each stands. Change it when a layer ships. */
export const LAYERS: readonly {
  name: Layer;
  data: LayerStatus;
  api: LayerStatus;
  path: string | null;
  description: string;
}[] = [
  {
    name: 'rest',
    data: 'live',
    api: 'live',
    path: '/v1',
    description: 'REST over HTTP, snake_case JSON, cursor pagination.',
  },
  {
    name: 'graphql',
    data: 'live',
    api: 'live',
    path: '/graphql',
    description:
      "The typed schema of the interface spec, stitched from the services, shaped by the key's entitlements and budgeted per plan.",
  },
  {
    name: 'cypher',
    data: 'live',
    api: 'beta',
    path: '/v1/cypher',
    description:
      'Read-only openCypher over the election graph, the same scope and contact rules as every layer, budgeted per plan (Build and Enterprise); the schema at /v1/cypher/schema.',
  },
  {
    name: 'agent',
    data: 'live',
    api: 'beta',
    path: '/v1/agent',
    description:
      'A Model Context Protocol server (Streamable HTTP) for AI agents: tools that answer from the graph with sources and confidence, and resources describing it, under the same key, scope and contact rules (Build and Enterprise).',
  },
  {
    name: 'webhooks',
    data: 'live',
    api: 'beta',
    path: '/v1/webhooks',
    description:
      'Signed data-change deliveries per the Standard Webhooks spec, retried for three days (Build and Enterprise).',
  },
  {
    name: 'bulk_export',
    data: 'live',
    api: 'beta',
    path: '/v1/exports',
    description:
      'Whole-dataset snapshots shaped for the key (NDJSON, CSV, Parquet) with a manifest naming the change-feed position they reflect: Build monthly, Enterprise on demand.',
  },
];

export const META_ENDPOINTS = {
  layers: {
    operationId: 'listLayers',
    path: '/v1/meta/layers',
    tag: 'Meta',
    summary: 'Status of each query layer',
    description: `Each layer with a \`data\` and an \`api\` status. ${Object.entries(LAYER_STATUS_MEANINGS)
      .map(([k, v]) => `\`${k}\`: ${v}`)
      .join(' ')}`,
    params: [P.minConfidence, P.singlePageCursor],
    response: 'LayerList',
    cache: 'geographic',
    errors: ['invalid_parameter'],
    answer: () => async (_params, principal) => ({
      data: LAYERS.map((layer) => ({ ...layer, available_to_key: layerAllowed(principal, layer.name) })),
      statuses: LAYER_STATUS_MEANINGS,
      next_cursor: null,
    }),
  },
} satisfies Record<string, Endpoint>;
