import { join, resolve } from 'node:path';
import { ENVIRONMENTS, int, oneOf, optionalStr, str, type DeploymentEnvironment } from '@civicgraph/kit';
import { readStoreSelection, type StoreSelection } from './store/open-store.js';

/** Graph service configuration: the only reader of process.env in this service. */
export interface GraphConfig {
  /** gRPC bind host (GRAPH_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (GRAPH_GRPC_PORT, default 50053; 0 picks a free one). */
  port: number;
  /** The embedded store: `${CIVIC_DATA_DIR}/graph` (CIVIC_DATA_DIR default `.civicgraph`). */
  storePath: string;
  /**
   * Where the graph lives (GRAPH_STORE): `embedded` (default; LMDB at storePath) or
   * `arangodb` (ARANGO_URL, ARANGO_DATABASE default civicgraph, ARANGO_USER default root,
   * ARANGO_PASSWORD, ARANGO_PREFIX default graph_).
   */
  store: StoreSelection;
  /**
   * Secret that signs pagination cursors (CIVIC_CURSOR_SECRET). Unset: a random secret
   * kept beside the store, so cursors survive restarts of one deployment; replicas must
   * share one, so set it when running more than one.
   */
  cursorSecret: string | undefined;
  /** How often the outbox relay looks for unpublished events (GRAPH_RELAY_POLL_MS, default 200). */
  relayPollMs: number;
  /**
   * How often stored candidacies are re-scored as their sources age (GRAPH_RESCORE_INTERVAL_MS,
   * default one day; 0: never). Confidence decays with a year's half-life, so a day moves it
   * by at most 0.2 %; a pass writes only those that moved by 0.5 % or more.
   */
  rescoreIntervalMs: number;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** Deployment environment word in event subjects (CIVIC_ENV, default test). */
  env: (typeof ENVIRONMENTS)[number];
  /** The environment whose keys this deployment's data serves (CIVIC_ENV, default test). */
  serves: DeploymentEnvironment;
  logLevel: string;
}

export function readGraphConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GraphConfig> {
  return Object.freeze({
    host: str(env, 'GRAPH_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'GRAPH_GRPC_PORT', 50053, 0, 65535),
    storePath: join(resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')), 'graph'),
    store: readStoreSelection(env),
    cursorSecret: optionalStr(env, 'CIVIC_CURSOR_SECRET'),
    relayPollMs: int(env, 'GRAPH_RELAY_POLL_MS', 200, 10, 60_000),
    rescoreIntervalMs: int(env, 'GRAPH_RESCORE_INTERVAL_MS', 86_400_000, 0, 2_147_483_647),
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    serves: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}

