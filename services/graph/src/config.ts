import { join, resolve } from 'node:path';
import {
  COMMON_SETTINGS,
  defineSettings,
  grpcBindSettings,
  integer,
  text,
  ENVIRONMENTS,
  type DeploymentEnvironment,
} from '@civicgraph/kit';
import { STORE_SETTINGS, storeSelectionOf, type StoreSelection } from './store/store-settings.js';

/** Graph service configuration: the only reader of process.env in this service. */
export interface GraphConfig {
  /** gRPC bind host (GRAPH_GRPC_HOST). */
  host: string;
  /** gRPC port (GRAPH_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** The embedded store: `${CIVIC_DATA_DIR}/graph`. */
  storePath: string;
  /** Where the graph lives (GRAPH_STORE and ARANGO_*). */
  store: StoreSelection;
  /**
   * Secret that signs pagination cursors (CIVIC_CURSOR_SECRET). Unset: a random secret
   * kept beside the store, so cursors survive restarts of one deployment; replicas must
   * share one, so set it when running more than one.
   */
  cursorSecret: string | undefined;
  /** How often the outbox relay looks for unpublished events (GRAPH_RELAY_POLL_MS). */
  relayPollMs: number;
  /**
   * How often stored candidacies are re-scored as their sources age (GRAPH_RESCORE_INTERVAL_MS;
   * 0: never). Confidence decays with a year's half-life, so a day moves it by at most 0.2 %;
   * a pass writes only those that moved by 0.5 % or more.
   */
  rescoreIntervalMs: number;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** Deployment environment word in event subjects (CIVIC_ENV). */
  env: (typeof ENVIRONMENTS)[number];
  /** The environment whose keys this deployment's data serves (CIVIC_ENV). */
  serves: DeploymentEnvironment;
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
}

/** The graph service's environment: every variable it reads, with its default and meaning. */
export const graphSettings = defineSettings('graph', {
  ...grpcBindSettings('GRAPH', 50053),
  CIVIC_DATA_DIR: {
    ...COMMON_SETTINGS.CIVIC_DATA_DIR,
    description: 'folder of the embedded stores: the election graph in `graph/`',
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  NATS_URL: COMMON_SETTINGS.NATS_URL,
  ...STORE_SETTINGS,
  CIVIC_CURSOR_SECRET: {
    type: text(),
    sensitive: true,
    description: 'signs pagination cursors; replicas must share one; unset → a random secret kept in `CIVIC_DATA_DIR`',
  },
  GRAPH_RELAY_POLL_MS: {
    type: integer(10, 60_000),
    default: '200',
    description: 'how often the outbox relay looks for unpublished events',
  },
  GRAPH_RESCORE_INTERVAL_MS: {
    type: integer(0, 2_147_483_647),
    default: '86400000',
    description: 'how often stored candidacies are re-scored as their sources age (a day; `0`: never)',
  },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
});

export function readGraphConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GraphConfig> {
  return configOf(graphSettings.parse(env));
}

/** Every setting at its default, over `dataDir`: the base of a stack started in code. */
export function defaultGraphConfig(dataDir: string): Readonly<GraphConfig> {
  return configOf({ ...graphSettings.defaults(), CIVIC_DATA_DIR: dataDir });
}

function configOf(s: ReturnType<typeof graphSettings.parse>): Readonly<GraphConfig> {
  return Object.freeze({
    host: s.GRAPH_GRPC_HOST,
    port: s.GRAPH_GRPC_PORT,
    storePath: join(resolve(s.CIVIC_DATA_DIR), 'graph'),
    store: storeSelectionOf(s),
    cursorSecret: s.CIVIC_CURSOR_SECRET,
    relayPollMs: s.GRAPH_RELAY_POLL_MS,
    rescoreIntervalMs: s.GRAPH_RESCORE_INTERVAL_MS,
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    serves: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
  });
}
