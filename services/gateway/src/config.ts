import { ConfigError, int, oneOf, optionalStr, str, ENVIRONMENTS, type DeploymentEnvironment } from '@civicgraph/kit';

/** Gateway configuration: the only reader of process.env in this service. */
export interface GatewayConfig {
  /** HTTP port (PORT, default 8080; 0 picks a free one). */
  port: number;
  /** HTTP bind address (HOST, default 127.0.0.1; 0.0.0.0 in containers). */
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
  /** Deployment environment word in event subjects (CIVIC_ENV, default test). */
  env: (typeof ENVIRONMENTS)[number];
  /**
   * The environment whose keys this deployment serves (CIVIC_ENV, default test): `test`
   * serves `cg_test_` keys on the sandbox dataset, `live` serves `cg_live_` keys.
   */
  serves: DeploymentEnvironment;
  /** How long a principal is cached (AUTH_CACHE_MS, default 5000). */
  authCacheMs: number;
  /** Deadline for each upstream call (UPSTREAM_DEADLINE_MS, default 2000). */
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
}

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GatewayConfig> {
  return Object.freeze({
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST', '127.0.0.1'),
    geoAddr: str(env, 'GEO_ADDR', '127.0.0.1:50051'),
    authAddr: str(env, 'AUTH_ADDR', '127.0.0.1:50052'),
    graphAddr: str(env, 'GRAPH_ADDR', '127.0.0.1:50053'),
    resultsAddr: str(env, 'RESULTS_ADDR', '127.0.0.1:50054'),
    webhooksAddr: optionalStr(env, 'WEBHOOKS_ADDR'),
    ingestAddr: optionalStr(env, 'INGEST_ADDR'),
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    serves: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    authCacheMs: int(env, 'AUTH_CACHE_MS', 5_000, 0, 3_600_000),
    upstreamDeadlineMs: int(env, 'UPSTREAM_DEADLINE_MS', 2_000, 10, 60_000),
    rateLimitRedisUrl: optionalStr(env, 'RATE_LIMIT_REDIS_URL'),
    adminToken: adminToken(env),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}

function adminToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = optionalStr(env, 'CIVIC_ADMIN_TOKEN');
  if (token !== undefined && token.length < 32) throw new ConfigError('CIVIC_ADMIN_TOKEN', 'expected at least 32 characters');
  return token;
}
