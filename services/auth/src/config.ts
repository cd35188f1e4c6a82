import {
  COMMON_SETTINGS,
  defineSettings,
  grpcBindSettings,
  text,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';
import { join, resolve } from 'node:path';

/** Auth service configuration: the only reader of process.env in this service. */
export interface AuthConfig {
  /** gRPC bind host (AUTH_GRPC_HOST). */
  host: string;
  /** gRPC port (AUTH_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** Where keys are kept: `${CIVIC_DATA_DIR}/auth`. */
  storePath: string;
  /**
   * Pepper mixed into every stored key digest (CIVIC_KEY_PEPPER, at least 32 bytes).
   * Unset: a random one kept in `${CIVIC_DATA_DIR}/auth-pepper.secret`, which the
   * `civicgraph keys` CLI reads too. Keep it out of backups of the key store: a copy of the
   * store without it cannot confirm a single key.
   */
  pepper: string | undefined;
  /** Where the pepper is kept when none is configured; default beside the store. */
  pepperPath?: string;
  /** NATS server for key revocation events (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
}

/** The auth service's environment: every variable it reads, with its default and meaning. */
export const authSettings = defineSettings('auth', {
  ...grpcBindSettings('AUTH', 50052),
  CIVIC_DATA_DIR: { ...COMMON_SETTINGS.CIVIC_DATA_DIR, description: 'folder of the embedded stores: keys in `auth/`' },
  CIVIC_KEY_PEPPER: {
    type: text(),
    sensitive: true,
    description:
      'pepper of the stored key digests (at least 32 bytes); every process of a deployment must share it; unset → a random one kept in `CIVIC_DATA_DIR/auth-pepper.secret`',
  },
  NATS_URL: {
    ...COMMON_SETTINGS.NATS_URL,
    description: 'NATS JetStream for key revocation events; unset → the in-process bus',
  },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): Readonly<AuthConfig> {
  return configOf(authSettings.parse(env));
}

/** Every setting at its default, over `dataDir`: the base of a stack started in code. */
export function defaultAuthConfig(dataDir: string): Readonly<AuthConfig> {
  return configOf({ ...authSettings.defaults(), CIVIC_DATA_DIR: dataDir });
}

function configOf(s: ReturnType<typeof authSettings.parse>): Readonly<AuthConfig> {
  return Object.freeze({
    host: s.AUTH_GRPC_HOST,
    port: s.AUTH_GRPC_PORT,
    storePath: join(resolve(s.CIVIC_DATA_DIR), 'auth'),
    pepper: s.CIVIC_KEY_PEPPER,
    natsUrl: s.NATS_URL,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'auth'),
  });
}
