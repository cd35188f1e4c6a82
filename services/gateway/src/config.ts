import { int, oneOf, optionalStr, str, ENVIRONMENTS } from '@civicgraph/kit';

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
  /** NATS server for cache invalidation events (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** Deployment environment word in event subjects (CIVIC_ENV, default test). */
  env: (typeof ENVIRONMENTS)[number];
  /** How long a principal is cached (AUTH_CACHE_MS, default 5000). */
  authCacheMs: number;
  /** Deadline for each upstream call (UPSTREAM_DEADLINE_MS, default 2000). */
  upstreamDeadlineMs: number;
  /**
   * Most point lookups coalesced into one geo call (GEO_BATCH_MAX, default 256, 1..1000;
   * 1 sends every lookup on its own).
   */
  geoBatchMax: number;
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
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    authCacheMs: int(env, 'AUTH_CACHE_MS', 5_000, 0, 3_600_000),
    upstreamDeadlineMs: int(env, 'UPSTREAM_DEADLINE_MS', 2_000, 10, 60_000),
    geoBatchMax: int(env, 'GEO_BATCH_MAX', 256, 1, 1000),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}
