import { join, resolve } from 'node:path';
import {
  address,
  COMMON_SETTINGS,
  defineSettings,
  grpcBindSettings,
  integer,
  ConfigError,
  onOff,
  text,
  url,
  word,
  ENVIRONMENTS,
  type DeploymentEnvironment,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
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
  /** Export jobs and, with the filesystem storage, their files: `${CIVIC_DATA_DIR}/exports`. */
  exportsPath: string;
  /** Whether this process runs the export worker and the monthly schedule (GRAPH_EXPORT_WORKER). */
  exportWorker: boolean;
  /** The geo service (GRAPH_GEO_ADDR), whose boundaries exports carry; unset → exports without boundaries. */
  geoAddr: string | undefined;
  /** Where export files are published (EXPORT_STORAGE and EXPORT_S3_*). */
  exportStorage: ExportStorageSelection;
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
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
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
  CIVIC_CURSOR_SECRET: COMMON_SETTINGS.CIVIC_CURSOR_SECRET,
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
  GRAPH_EXPORT_WORKER: {
    type: onOff(),
    default: 'on',
    description: 'runs bulk export jobs and the monthly export schedule in this process (`off`: another runs them)',
  },
  GRAPH_GEO_ADDR: {
    type: address(),
    description:
      'the geo service, `host:port`, whose region boundaries bulk exports carry; unset → exports without boundaries',
  },
  EXPORT_STORAGE: {
    type: word(['filesystem', 's3'] as const),
    default: 'filesystem',
    description:
      'where export files are published: `filesystem` (`CIVIC_DATA_DIR/exports/files`) or `s3` (an S3-compatible bucket)',
  },
  EXPORT_S3_ENDPOINT: {
    type: url('http', 'https'),
    description:
      'the S3-compatible service, e.g. `https://s3.us-east-1.amazonaws.com` or `http://minio:9000`; required with `EXPORT_STORAGE=s3`',
  },
  EXPORT_S3_BUCKET: { type: text(), default: 'civicgraph-exports', description: 'bucket of the export files' },
  EXPORT_S3_PREFIX: { type: text(), default: 'exports/', description: 'prefix of every export object key' },
  EXPORT_S3_REGION: { type: text(), default: 'us-east-1', description: 'region the requests are signed for (SigV4)' },
  EXPORT_S3_ACCESS_KEY_ID: { type: text(), default: '', description: 'access key id' },
  EXPORT_S3_SECRET_ACCESS_KEY: { type: text(), sensitive: true, default: '', description: 'secret access key' },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

/** Where export files go: the local filesystem, or an S3-compatible bucket. */
export type ExportStorageSelection =
  | { kind: 'filesystem' }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      prefix: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
    };

function exportStorageOf(s: ReturnType<typeof graphSettings.parse>): ExportStorageSelection {
  if (s.EXPORT_STORAGE === 'filesystem') return { kind: 'filesystem' };
  if (s.EXPORT_S3_ENDPOINT === undefined)
    throw new ConfigError('EXPORT_S3_ENDPOINT', 'EXPORT_STORAGE=s3 needs EXPORT_S3_ENDPOINT, e.g. http://minio:9000');
  return {
    kind: 's3',
    endpoint: s.EXPORT_S3_ENDPOINT,
    bucket: s.EXPORT_S3_BUCKET,
    prefix: s.EXPORT_S3_PREFIX,
    region: s.EXPORT_S3_REGION,
    accessKeyId: s.EXPORT_S3_ACCESS_KEY_ID,
    secretAccessKey: s.EXPORT_S3_SECRET_ACCESS_KEY,
  };
}

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
    exportsPath: join(resolve(s.CIVIC_DATA_DIR), 'exports'),
    exportWorker: s.GRAPH_EXPORT_WORKER,
    exportStorage: exportStorageOf(s),
    geoAddr: s.GRAPH_GEO_ADDR,
    store: storeSelectionOf(s),
    cursorSecret: s.CIVIC_CURSOR_SECRET,
    relayPollMs: s.GRAPH_RELAY_POLL_MS,
    rescoreIntervalMs: s.GRAPH_RESCORE_INTERVAL_MS,
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    serves: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'graph'),
  });
}
