import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
// The settings alone, not the graph service: every command reads this, most need no graph.
import { STORE_SETTINGS, storeSelectionOf, type StoreSelection } from '@civicgraph/graph/settings';
import {
  COMMON_SETTINGS,
  defineSettings,
  port,
  secret,
  text,
  ENVIRONMENTS,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';

/** `civicgraph` configuration: the only reader of process.env in the CLI. */
export interface CliConfig {
  /** Gateway HTTP port (PORT). */
  port: number;
  /** Gateway bind host (HOST). */
  host: string;
  /** Embedded stores' directory (CIVIC_DATA_DIR). */
  dataDir: string;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  env: (typeof ENVIRONMENTS)[number];
  /**
   * Folder of the public data files (CIVIC_SHARED_DATA, default the `shared/data` folder
   * beside the repository when it exists): the sources' mirror unless CIVIC_SOURCES_MIRROR
   * is set, and the county populations.
   */
  sharedData: string | undefined;
  /** The graph store `import` writes to (GRAPH_STORE and ARANGO_*, as the graph service reads them). */
  graphStore: StoreSelection;
  /** The key pepper (CIVIC_KEY_PEPPER), as the auth service reads it; unset → the one kept in the data directory. */
  keyPepper: string | undefined;
  /** Where `up` and `sources run` read the public sources (CIVIC_SOURCES_MIRROR: a folder or an http(s) base); unset → the shared data folder when present, else the public hosts. */
  sourcesMirror: string | undefined;
  /** The admin API token `up` gives the gateway (CIVIC_ADMIN_TOKEN); unset → no admin API. */
  adminToken: string | undefined;
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing: TracingConfig;
}

function defaultSharedData(): string | undefined {
  const candidate = fileURLToPath(new URL('../../../../shared/data', import.meta.url));
  return existsSync(candidate) ? candidate : undefined;
}

/** The `civicgraph` command's environment: every variable it reads, with its default and meaning. */
export const cliSettings = defineSettings('civicgraph (up, keys, import, sources)', {
  PORT: { type: port(), default: '8080', description: 'HTTP port of the gateway `up` starts (`0` picks a free one)' },
  HOST: { type: text(), default: '127.0.0.1', description: 'HTTP bind address of that gateway' },
  CIVIC_DATA_DIR: {
    ...COMMON_SETTINGS.CIVIC_DATA_DIR,
    description:
      'folder of the embedded stores (keys in `auth/`, boundaries in `geo/`, the election graph in `graph/`, source state in `ingest/`, the local bus in `bus/`)',
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  NATS_URL: {
    ...COMMON_SETTINGS.NATS_URL,
    description: 'NATS JetStream; unset → the in-process bus, kept on disk in `CIVIC_DATA_DIR/bus`',
  },
  CIVIC_SHARED_DATA: {
    type: text(),
    description:
      "the public data folder: the sources' mirror when `CIVIC_SOURCES_MIRROR` is unset, and county populations; unset → `../shared/data` when present",
  },
  ...STORE_SETTINGS,
  CIVIC_KEY_PEPPER: {
    type: text(),
    sensitive: true,
    description:
      'pepper of the stored key digests, as the auth service reads it; unset → the one kept in `CIVIC_DATA_DIR`',
  },
  CIVIC_SOURCES_MIRROR: {
    type: text(),
    description:
      'a folder or an `http(s)://` base laid out like `shared/data`; unset → the shared data folder when present, else the public hosts',
  },
  CIVIC_ADMIN_TOKEN: {
    type: secret(32),
    sensitive: true,
    description: 'the admin API token `up` gives the gateway (at least 32 characters); unset → no admin API',
  },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

export function readCliConfig(env: NodeJS.ProcessEnv = process.env): Readonly<CliConfig> {
  const s = cliSettings.parse(env);
  return Object.freeze({
    port: s.PORT,
    host: s.HOST,
    dataDir: resolve(s.CIVIC_DATA_DIR),
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    sharedData: s.CIVIC_SHARED_DATA ?? defaultSharedData(),
    graphStore: storeSelectionOf(s),
    keyPepper: s.CIVIC_KEY_PEPPER,
    sourcesMirror: s.CIVIC_SOURCES_MIRROR,
    adminToken: s.CIVIC_ADMIN_TOKEN,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'civicgraph'),
  });
}
