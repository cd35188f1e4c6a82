import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  WebhookServiceClient,
  type CreatedEndpoint,
  type Delivery,
  type DeliveryPage,
  type Endpoint,
  type EndpointPage,
} from '@civicgraph/protos/civic/webhooks/v1/webhooks';
import { CLIENT_OPTIONS, insecure } from '@civicgraph/kit';
import { principalRpc } from './principal-rpc.js';

/** The gateway's view of the webhooks service: every call on behalf of the caller's principal. */
export interface WebhooksUpstream {
  create(p: Principal, bodyJson: string, idempotencyKey: string): Promise<CreatedEndpoint>;
  list(p: Principal, limit: number, startingAfter: string): Promise<EndpointPage>;
  get(p: Principal, id: string): Promise<Endpoint>;
  update(p: Principal, id: string, bodyJson: string): Promise<Endpoint>;
  remove(p: Principal, id: string): Promise<Endpoint>;
  sendTest(p: Principal, id: string): Promise<Delivery>;
  deliveries(p: Principal, endpointId: string, limit: number, startingAfter: string): Promise<DeliveryPage>;
  redeliver(p: Principal, endpointId: string, deliveryId: string): Promise<Delivery>;
  close(): void;
}

export function connectWebhooks(address: string, deadlineMs: number): WebhooksUpstream {
  const client = new WebhookServiceClient(address, insecure(), CLIENT_OPTIONS);
  const rpc = principalRpc(client, 'webhooks', deadlineMs);
  return {
    create: (p, bodyJson, idempotencyKey) => rpc(client.createEndpoint, p, { bodyJson, idempotencyKey }),
    list: (p, limit, startingAfter) => rpc(client.listEndpoints, p, { limit, startingAfter }),
    get: (p, id) => rpc(client.getEndpoint, p, { id }),
    update: (p, id, bodyJson) => rpc(client.updateEndpoint, p, { id, bodyJson }),
    remove: (p, id) => rpc(client.deleteEndpoint, p, { id }),
    sendTest: (p, id) => rpc(client.sendTest, p, { id }),
    deliveries: (p, endpointId, limit, startingAfter) => rpc(client.listDeliveries, p, { endpointId, limit, startingAfter }),
    redeliver: (p, endpointId, deliveryId) => rpc(client.redeliver, p, { endpointId, deliveryId }),
    close: () => client.close(),
  };
}
