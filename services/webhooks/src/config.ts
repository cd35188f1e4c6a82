import { join, resolve } from 'node:path';
import {
  COMMON_SETTINGS,
  defineSettings,
  grpcBindSettings,
  integer,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';

/** Webhooks service configuration: the only reader of process.env in this service. */
export interface WebhooksConfig {
  /** gRPC bind host (WEBHOOKS_GRPC_HOST). */
  host: string;
  /** gRPC port (WEBHOOKS_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** Endpoints and the delivery log: `${CIVIC_DATA_DIR}/webhooks`. */
  storePath: string;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** The subject word events are published under (CIVIC_ENV). */
  env: string;
  /** Secret that signs the listings' cursors (CIVIC_CURSOR_SECRET); unset → one kept beside the store. */
  cursorSecret: string | undefined;
  /** Attempts in flight per endpoint (WEBHOOKS_CONCURRENCY). */
  concurrencyPerEndpoint: number;
  /** One attempt's limit (WEBHOOKS_TIMEOUT_MS). */
  timeoutMs: number;
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
}

/** The webhooks service's environment: every variable it reads, with its default and meaning. */
export const webhooksSettings = defineSettings('webhooks', {
  ...grpcBindSettings('WEBHOOKS', 50055),
  CIVIC_DATA_DIR: {
    ...COMMON_SETTINGS.CIVIC_DATA_DIR,
    description: 'folder of the embedded stores: endpoints and the delivery log in `webhooks/`',
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  NATS_URL: COMMON_SETTINGS.NATS_URL,
  CIVIC_CURSOR_SECRET: COMMON_SETTINGS.CIVIC_CURSOR_SECRET,
  WEBHOOKS_CONCURRENCY: { type: integer(1, 64), default: '4', description: 'attempts in flight per endpoint' },
  WEBHOOKS_TIMEOUT_MS: { type: integer(100, 60_000), default: '10000', description: "one delivery attempt's limit" },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

export function readWebhooksConfig(env: NodeJS.ProcessEnv = process.env): Readonly<WebhooksConfig> {
  return configOf(webhooksSettings.parse(env));
}

/** Every setting at its default, over `dataDir`: the base of a stack started in code. */
export function defaultWebhooksConfig(dataDir: string): Readonly<WebhooksConfig> {
  return configOf({ ...webhooksSettings.defaults(), CIVIC_DATA_DIR: dataDir });
}

function configOf(s: ReturnType<typeof webhooksSettings.parse>): Readonly<WebhooksConfig> {
  return Object.freeze({
    host: s.WEBHOOKS_GRPC_HOST,
    port: s.WEBHOOKS_GRPC_PORT,
    storePath: join(resolve(s.CIVIC_DATA_DIR), 'webhooks'),
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    cursorSecret: s.CIVIC_CURSOR_SECRET,
    concurrencyPerEndpoint: s.WEBHOOKS_CONCURRENCY,
    timeoutMs: s.WEBHOOKS_TIMEOUT_MS,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'webhooks'),
  });
}
