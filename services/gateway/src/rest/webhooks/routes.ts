import express, { type Express, type Request, type Response } from 'express';
import type { Delivery, Endpoint } from '@civicgraph/protos/civic/webhooks/v1/webhooks';
import type { RateLimiter } from '@civicgraph/kit';
import { sendUncached } from '../../http/respond.js';
import { principalOf } from '../../http/request-context.js';
import type { WebhooksUpstream } from '../../upstream/webhooks-client.js';
import { listBody } from '../list.js';
import { P, readParams } from '../schema/params.js';

/** Largest subscription body; a 1 MB body is refused before it is read whole. */
const BODY_LIMIT = '64kb';

/**
 * `/v1/webhooks`: endpoints and their deliveries, for Build and Enterprise keys (the plan
 * gate in front answers Explore). The webhooks service holds the rules; this maps HTTP to
 * it: bodies pass through as the client sent them, so the service names the bad field.
 *
 *   POST   /v1/webhooks                                   201; the secret only here (Idempotency-Key honoured)
 *   GET    /v1/webhooks                                   the key's endpoints, oldest first (limit, cursor)
 *   GET    /v1/webhooks/{id}                              one
 *   PATCH  /v1/webhooks/{id}                              url, events, states, description, enabled
 *   DELETE /v1/webhooks/{id}                              removes it
 *   POST   /v1/webhooks/{id}/test                         202; sends a webhook.test event
 *   GET    /v1/webhooks/{id}/deliveries                   newest first, with every attempt (limit, cursor)
 *   POST   /v1/webhooks/{id}/deliveries/{delivery}/redeliver   202; the same message again
 */
export function webhookRoutes(app: Express, webhooks: WebhooksUpstream, limiter: RateLimiter): void {
  const body = express.text({ type: () => true, limit: BODY_LIMIT });
  const send = (res: Response, status: number, view: unknown) => sendUncached(res, limiter, status, view);

  app.post('/v1/webhooks', body, async (req, res) => {
    const created = await webhooks.create(principalOf(res), text(req), idempotencyKey(req));
    if (created.replayed) res.setHeader('Idempotent-Replayed', 'true');
    await send(res, created.replayed ? 200 : 201, { ...endpointView(created.endpoint!), secret: created.secret });
  });
  app.get('/v1/webhooks', async (req, res) => {
    const { limit, cursor } = pageParams(req);
    const page = await webhooks.list(principalOf(res), limit, cursor);
    await send(res, 200, listBody(page.data.map(endpointView), page.nextCursor));
  });
  app.get('/v1/webhooks/:id', async (req, res) =>
    send(res, 200, endpointView(await webhooks.get(principalOf(res), id(req)))),
  );
  app.patch('/v1/webhooks/:id', body, async (req, res) =>
    send(res, 200, endpointView(await webhooks.update(principalOf(res), id(req), text(req)))),
  );
  app.delete('/v1/webhooks/:id', async (req, res) =>
    send(res, 200, { ...endpointView(await webhooks.remove(principalOf(res), id(req))), deleted: true }),
  );
  app.post('/v1/webhooks/:id/test', async (req, res) =>
    send(res, 202, deliveryView(await webhooks.sendTest(principalOf(res), id(req)))),
  );
  app.get('/v1/webhooks/:id/deliveries', async (req, res) => {
    const { limit, cursor } = pageParams(req);
    const page = await webhooks.deliveries(principalOf(res), id(req), limit, cursor);
    await send(res, 200, listBody(page.data.map(deliveryView), page.nextCursor));
  });
  app.post('/v1/webhooks/:id/deliveries/:delivery/redeliver', async (req, res) => {
    await send(res, 202, deliveryView(await webhooks.redeliver(principalOf(res), id(req), param(req, 'delivery'))));
  });
}

function text(req: Request): string {
  return typeof req.body === 'string' && req.body !== '' ? req.body : '{}';
}

function idempotencyKey(req: Request): string {
  return req.get('Idempotency-Key')?.trim() ?? '';
}

function param(req: Request, name: string): string {
  const v: unknown = req.params[name];
  return typeof v === 'string' ? v : '';
}

const id = (req: Request) => param(req, 'id');

const PAGE_PARAMS = [P.limit, P.cursor];

/** A listing's `limit` and `cursor`, as on every list; any other parameter is refused by name. */
function pageParams(req: Request): { limit: number; cursor: string } {
  const params = readParams(PAGE_PARAMS, req.query);
  return { limit: params['limit'] as number, cursor: (params['cursor'] as string | undefined) ?? '' };
}

function endpointView(e: Endpoint) {
  return {
    id: e.id,
    object: 'webhook_endpoint',
    url: e.url,
    events: e.events,
    states: e.states,
    description: e.description,
    enabled: e.enabled,
    disabled_reason: e.disabledReason === '' ? null : e.disabledReason,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

function deliveryView(d: Delivery) {
  return {
    id: d.id,
    object: 'webhook_delivery',
    endpoint_id: d.endpointId,
    webhook_id: d.messageId,
    type: d.type,
    status: d.status,
    next_attempt_at: d.nextAttemptAt === '' ? null : d.nextAttemptAt,
    created_at: d.createdAt,
    attempts: d.attempts.map((a) => ({
      at: a.at,
      status: a.status === 0 ? null : a.status,
      latency_ms: a.latencyMs,
      error: a.error === '' ? null : a.error,
    })),
  };
}
