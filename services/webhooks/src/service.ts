import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookServiceService } from '@civicgraph/protos/civic/webhooks/v1/webhooks';
import { Cursors, startGrpcServer, type EventBus, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { WebhooksConfig } from './config.js';
import { Deliverer } from './delivery/deliverer.js';
import { LmdbDeliveryLog } from './delivery/lmdb-delivery-log.js';
import { Dispatcher } from './dispatcher.js';
import { EndpointService } from './endpoints/endpoint-service.js';
import { LmdbEndpointStore } from './endpoints/endpoint-store.js';
import { webhookHandlers } from './handlers.js';
import type { Resolver } from './target-url.js';

export interface WebhooksDeps {
  bus: EventBus;
  lifecycle: Lifecycle;
  log: Logger;
  /** Name resolution for receiver URLs (tests answer from a table). */
  resolver?: Resolver;
}

export interface WebhooksService {
  readonly address: string;
  readonly port: number;
  readonly dispatcher: Dispatcher;
  readonly deliverer: Deliverer;
}

/** Opens the stores, starts the deliverer and the dispatcher, and serves civic.webhooks.v1. */
export async function startWebhooksService(
  config: Pick<WebhooksConfig, 'host' | 'port' | 'storePath' | 'env'> & Partial<WebhooksConfig>,
  deps: WebhooksDeps,
): Promise<WebhooksService> {
  const { bus, lifecycle, log } = deps;
  mkdirSync(config.storePath, { recursive: true });
  const store = LmdbEndpointStore.open(join(config.storePath, 'endpoints'));
  const deliveries = LmdbDeliveryLog.open(join(config.storePath, 'deliveries'));
  lifecycle.defer('webhook stores', async () => {
    await store.close();
    await deliveries.close();
  });
  const deliverer = new Deliverer({
    log: deliveries,
    endpoints: store,
    logger: log,
    ...(config.concurrencyPerEndpoint === undefined ? {} : { concurrencyPerEndpoint: config.concurrencyPerEndpoint }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(deps.resolver === undefined ? {} : { resolver: deps.resolver }),
  });
  deliverer.start();
  lifecycle.defer('webhook deliverer', () => deliverer.stop());
  const dispatcher = new Dispatcher({ bus, env: config.env, subscriptions: store, deliverer, logger: log });
  await dispatcher.start();
  lifecycle.defer('webhook dispatcher', () => dispatcher.stop());
  const service = new EndpointService({
    store,
    log: deliveries,
    deliverer,
    cursors: Cursors.fromSecretFile(join(config.storePath, 'cursor.secret'), config.cursorSecret),
    ...(deps.resolver === undefined ? {} : { resolver: deps.resolver }),
  });
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [
      {
        name: 'civic.webhooks.v1.WebhookService',
        definition: WebhookServiceService,
        implementation: webhookHandlers(service, log),
      },
    ],
    log,
  });
  lifecycle.defer('webhooks grpc server', () => server.stop());
  server.markServing();
  return { address: server.address, port: server.port, dispatcher, deliverer };
}
