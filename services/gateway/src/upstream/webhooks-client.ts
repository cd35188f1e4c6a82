import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  WebhookServiceClient,
  type CreatedEndpoint,
  type Delivery,
  type DeliveryPage,
  type Endpoint,
  type EndpointPage,
} from '@civicgraph/protos/civic/webhooks/v1/webhooks';
import { clientOptions, insecure } from '@civicgraph/kit';
import { rpcOf } from './rpc.js';

/** The gateway's view of the webhooks service: every call on behalf of the caller's principal. */
export interface WebhooksUpstream {
  create(p: Principal, bodyJson: string, idempotencyKey: string): Promise<CreatedEndpoint>;
  list(p: Principal, limit: number, cursor: string): Promise<EndpointPage>;
  get(p: Principal, id: string): Promise<Endpoint>;
  update(p: Principal, id: string, bodyJson: string): Promise<Endpoint>;
  remove(p: Principal, id: string): Promise<Endpoint>;
  sendTest(p: Principal, id: string): Promise<Delivery>;
  deliveries(p: Principal, endpointId: string, limit: number, cursor: string): Promise<DeliveryPage>;
  redeliver(p: Principal, endpointId: string, deliveryId: string): Promise<Delivery>;
  close(): void;
}

export function connectWebhooks(address: string, deadlineMs: number): WebhooksUpstream {
  const client = new WebhookServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'webhooks');
  return {
    create: (p, bodyJson, idempotencyKey) => rpc(client.createEndpoint, { bodyJson, idempotencyKey }, p),
    list: (p, limit, cursor) => rpc(client.listEndpoints, { limit, cursor }, p),
    get: (p, id) => rpc(client.getEndpoint, { id }, p),
    update: (p, id, bodyJson) => rpc(client.updateEndpoint, { id, bodyJson }, p),
    remove: (p, id) => rpc(client.deleteEndpoint, { id }, p),
    sendTest: (p, id) => rpc(client.sendTest, { id }, p),
    deliveries: (p, endpointId, limit, cursor) => rpc(client.listDeliveries, { endpointId, limit, cursor }, p),
    redeliver: (p, endpointId, deliveryId) => rpc(client.redeliver, { endpointId, deliveryId }, p),
    close: () => client.close(),
  };
}
