import type {
  Delivery as DeliveryMessage,
  Endpoint as EndpointMessage,
  WebhookServiceServer,
} from '@civicgraph/protos/civic/webhooks/v1/webhooks';
import { principalOf, unary, type Logger } from '@civicgraph/kit';
import type { Delivery } from './delivery/delivery.js';
import type { EndpointService } from './endpoints/endpoint-service.js';
import type { EndpointRecord } from './endpoints/endpoint-store.js';

/** gRPC handlers: the caller's principal and request to the EndpointService; errors mapped by `unary`. */
export function webhookHandlers(service: EndpointService, log: Logger): WebhookServiceServer {
  return {
    createEndpoint: unary(log, 'CreateEndpoint', async (req, call) => {
      const created = await service.create(principalOf(call), req.bodyJson, req.idempotencyKey);
      if (!created.replayed)
        log.info({ endpointId: created.endpoint.id, keyId: created.endpoint.keyId }, 'webhook endpoint created');
      return { endpoint: endpointMessage(created.endpoint), secret: created.secret, replayed: created.replayed };
    }),
    listEndpoints: unary(log, 'ListEndpoints', async (req, call) => {
      const page = await service.list(principalOf(call), req.limit, req.cursor);
      return { data: page.data.map(endpointMessage), nextCursor: page.nextCursor };
    }),
    getEndpoint: unary(log, 'GetEndpoint', async (req, call) =>
      endpointMessage(await service.get(principalOf(call), req.id)),
    ),
    updateEndpoint: unary(log, 'UpdateEndpoint', async (req, call) =>
      endpointMessage(await service.update(principalOf(call), req.id, req.bodyJson)),
    ),
    deleteEndpoint: unary(log, 'DeleteEndpoint', async (req, call) =>
      endpointMessage(await service.remove(principalOf(call), req.id)),
    ),
    sendTest: unary(log, 'SendTest', async (req, call) =>
      deliveryMessage(await service.sendTest(principalOf(call), req.id)),
    ),
    listDeliveries: unary(log, 'ListDeliveries', async (req, call) => {
      const page = await service.deliveries(principalOf(call), req.endpointId, req.limit, req.cursor);
      return { data: page.data.map(deliveryMessage), nextCursor: page.nextCursor };
    }),
    redeliver: unary(log, 'Redeliver', async (req, call) =>
      deliveryMessage(await service.redeliver(principalOf(call), req.endpointId, req.deliveryId)),
    ),
  };
}

/** An endpoint as callers see it: never its secrets, its owner's principal or key id. */
function endpointMessage(e: EndpointRecord): EndpointMessage {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    states: e.states,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

function deliveryMessage(d: Delivery): DeliveryMessage {
  return {
    id: d.id,
    endpointId: d.endpointId,
    messageId: d.messageId,
    type: d.type,
    status: d.status,
    nextAttemptAt: d.nextAttemptAt,
    createdAt: d.createdAt,
    attempts: d.attempts.map((a) => ({ at: a.at, status: a.status, latencyMs: a.latencyMs, error: a.error ?? '' })),
  };
}
