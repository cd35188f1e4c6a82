import { join, resolve } from 'node:path';
import { ENVIRONMENTS, int, oneOf, optionalStr, str } from '@civicgraph/kit';

/** Webhooks service configuration: the only reader of process.env in this service. */
export interface WebhooksConfig {
  /** gRPC bind host (WEBHOOKS_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (WEBHOOKS_GRPC_PORT, default 50055; 0 picks a free one). */
  port: number;
  /** Endpoints and the delivery log: `${CIVIC_DATA_DIR}/webhooks`. */
  storePath: string;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** The subject word events are published under (CIVIC_ENV, default test). */
  env: string;
  /** Attempts in flight per endpoint (WEBHOOKS_CONCURRENCY, default 4). */
  concurrencyPerEndpoint: number;
  /** One attempt's limit (WEBHOOKS_TIMEOUT_MS, default 10000). */
  timeoutMs: number;
  logLevel: string;
}

export function readWebhooksConfig(env: NodeJS.ProcessEnv = process.env): Readonly<WebhooksConfig> {
  return Object.freeze({
    host: str(env, 'WEBHOOKS_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'WEBHOOKS_GRPC_PORT', 50055, 0, 65535),
    storePath: join(resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')), 'webhooks'),
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    concurrencyPerEndpoint: int(env, 'WEBHOOKS_CONCURRENCY', 4, 1, 64),
    timeoutMs: int(env, 'WEBHOOKS_TIMEOUT_MS', 10_000, 100, 60_000),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}
