import {
  address,
  COMMON_SETTINGS,
  defineSettings,
  integer,
  port,
  secret,
  text,
  url,
  ENVIRONMENTS,
  type DeploymentEnvironment,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';

/** Gateway configuration: the only reader of process.env in this service. */
export interface GatewayConfig {
  /** HTTP port (PORT; 0 picks a free one). */
  port: number;
  /** HTTP bind address (HOST; 0.0.0.0 in containers). */
  host: string;
  /** geo service address (GEO_ADDR, host:port). */
  geoAddr: string;
  /** auth service address (AUTH_ADDR, host:port). */
  authAddr: string;
  /** graph service address (GRAPH_ADDR, host:port). */
  graphAddr: string;
  /** results service address (RESULTS_ADDR, host:port). */
  resultsAddr: string;
  /** ingest service address (INGEST_ADDR, host:port); unset → /admin/v1/sources is not served. */
  ingestAddr: string | undefined;
  /** webhooks service address (WEBHOOKS_ADDR, host:port); unset → /v1/webhooks is not served. */
  webhooksAddr: string | undefined;
  /** NATS server for cache invalidation events (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** Deployment environment word in event subjects (CIVIC_ENV). */
  env: (typeof ENVIRONMENTS)[number];
  /**
   * The environment whose keys this deployment serves (CIVIC_ENV): `test`
   * serves `cg_test_` keys on the sandbox dataset, `live` serves `cg_live_` keys.
   */
  serves: DeploymentEnvironment;
  /** How long a principal is cached (AUTH_CACHE_MS). */
  authCacheMs: number;
  /** Deadline for each upstream call (UPSTREAM_DEADLINE_MS). */
  upstreamDeadlineMs: number;
  /**
   * Redis holding the per-key rate-limit counters (RATE_LIMIT_REDIS_URL, e.g.
   * redis://127.0.0.1:6379); unset → counted in this process, right for one gateway only.
   */
  rateLimitRedisUrl: string | undefined;
  /**
   * Bearer token of the admin API, `/admin/v1/keys` (CIVIC_ADMIN_TOKEN, at least 32
   * characters); unset → the admin API does not exist (404) and keys are managed with the
   * `civicgraph keys` CLI.
   */
  adminToken: string | undefined;
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
}

/** The gateway's environment: every variable it reads, with its default and meaning. */
export const gatewaySettings = defineSettings('gateway', {
  PORT: { type: port(), default: '8080', description: 'HTTP port (`0` picks a free one)' },
  HOST: { type: text(), default: '127.0.0.1', description: 'HTTP bind address (`0.0.0.0` in containers)' },
  GEO_ADDR: { type: address(), required: true, description: 'the geo service, `host:port`' },
  AUTH_ADDR: { type: address(), required: true, description: 'the auth service, `host:port`' },
  GRAPH_ADDR: { type: address(), required: true, description: 'the graph service, `host:port`' },
  RESULTS_ADDR: { type: address(), required: true, description: 'the results service, `host:port`' },
  WEBHOOKS_ADDR: { type: address(), description: 'the webhooks service, `host:port`; unset → no `/v1/webhooks`' },
  INGEST_ADDR: {
    type: address(),
    description: 'the ingest service, `host:port`; unset → `/admin/v1/sources` answers 404',
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  NATS_URL: {
    ...COMMON_SETTINGS.NATS_URL,
    description: 'NATS JetStream for cache invalidation events; unset → the in-process bus',
  },
  AUTH_CACHE_MS: { type: integer(0, 3_600_000), default: '5000', description: 'how long a principal is cached' },
  UPSTREAM_DEADLINE_MS: { type: integer(10, 60_000), default: '2000', description: 'deadline of each upstream call' },
  RATE_LIMIT_REDIS_URL: {
    type: url('redis', 'rediss'),
    description: 'Redis holding the per-key rate-limit counters every gateway shares; unset → counted in this process',
  },
  CIVIC_ADMIN_TOKEN: {
    type: secret(32),
    sensitive: true,
    description:
      'bearer token of `/admin/v1/keys` and `/admin/v1/sources` (at least 32 characters); unset → no admin API',
  },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GatewayConfig> {
  return configOf(gatewaySettings.parse(env));
}

/** The upstream addresses a gateway cannot start without. */
export type GatewayUpstreams = Pick<GatewayConfig, 'geoAddr' | 'authAddr' | 'graphAddr' | 'resultsAddr'>;

/** Every setting at its default, over the given upstreams: the base of a stack started in code. */
export function defaultGatewayConfig(upstreams: GatewayUpstreams): Readonly<GatewayConfig> {
  const { geoAddr, authAddr, graphAddr, resultsAddr } = upstreams;
  return configOf({
    ...gatewaySettings.defaults(),
    GEO_ADDR: geoAddr,
    AUTH_ADDR: authAddr,
    GRAPH_ADDR: graphAddr,
    RESULTS_ADDR: resultsAddr,
  });
}

function configOf(s: ReturnType<typeof gatewaySettings.parse>): Readonly<GatewayConfig> {
  return Object.freeze({
    port: s.PORT,
    host: s.HOST,
    geoAddr: s.GEO_ADDR,
    authAddr: s.AUTH_ADDR,
    graphAddr: s.GRAPH_ADDR,
    resultsAddr: s.RESULTS_ADDR,
    webhooksAddr: s.WEBHOOKS_ADDR,
    ingestAddr: s.INGEST_ADDR,
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    serves: s.CIVIC_ENV,
    authCacheMs: s.AUTH_CACHE_MS,
    upstreamDeadlineMs: s.UPSTREAM_DEADLINE_MS,
    rateLimitRedisUrl: s.RATE_LIMIT_REDIS_URL,
    adminToken: s.CIVIC_ADMIN_TOKEN,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'gateway'),
  });
}
