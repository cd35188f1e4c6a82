import { isAbsolute, join, resolve } from 'node:path';
import {
  address,
  COMMON_SETTINGS,
  defineSettings,
  grpcBindSettings,
  integer,
  onOff,
  parsed,
  text,
  ConfigError,
  ENVIRONMENTS,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';
import type { Origin } from './fetch/fetch-file.js';
import { SOURCES } from './registry.js';

/** Ingest service configuration: the only reader of process.env in this service. */
export interface IngestConfig {
  /** gRPC bind host (INGEST_GRPC_HOST). */
  host: string;
  /** gRPC port (INGEST_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** `${CIVIC_DATA_DIR}`: the state and each source's current files, in `ingest/`. */
  dataDir: string;
  /** The graph service, which imports the graph's sources (GRAPH_ADDR, host:port; required). */
  graphAddr: string;
  /** The geo service, which imports the boundary maps (GEO_ADDR, host:port; required). */
  geoAddr: string;
  /**
   * Where sources are read from (CIVIC_SOURCES_MIRROR): unset → their public hosts; a folder,
   * or an http(s) base URL, laid out like the repository's shared/data.
   */
  origin: Origin;
  /** Refresh sources on their schedule (INGEST_SCHEDULE, `on` or `off`). */
  schedule: boolean;
  /** How often the schedule looks for due sources (INGEST_TICK_MS). */
  tickMs: number;
  /** Sources to keep (INGEST_SOURCES, comma-separated ids; default every source of the registry). */
  sources: string[];
  /** The environment this deployment serves (CIVIC_ENV): ingest calls the graph and geo services as a service of it. */
  env: (typeof ENVIRONMENTS)[number];
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
}

/** The ingest service's environment: every variable it reads, with its default and meaning. */
export const ingestSettings = defineSettings('ingest', {
  ...grpcBindSettings('INGEST', 50056),
  CIVIC_DATA_DIR: {
    ...COMMON_SETTINGS.CIVIC_DATA_DIR,
    description: "folder of ingest's state and of each source's current files (`ingest/`)",
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  GRAPH_ADDR: {
    type: address(),
    required: true,
    description: "the graph service, which imports the graph's sources, `host:port`",
  },
  GEO_ADDR: {
    type: address(),
    required: true,
    description: 'the geo service, which imports the boundary maps, `host:port`',
  },
  CIVIC_SOURCES_MIRROR: {
    type: text(),
    description: 'a folder or an `http(s)://` base laid out like `shared/data`, read instead of the public hosts',
  },
  INGEST_SCHEDULE: {
    type: onOff(),
    default: 'on',
    description: '`on`: run due sources at start and as they come due; `off`: only when asked',
  },
  INGEST_TICK_MS: {
    type: integer(100, 86_400_000),
    default: '60000',
    description: 'how often the schedule looks for due sources',
  },
  INGEST_SOURCES: {
    type: parsed(sourceList),
    default: '',
    description: 'the sources this deployment keeps (comma-separated ids); empty → every source of the registry',
  },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

/** INGEST_SOURCES: registry ids; none named → all of them. */
function sourceList(raw: string): string[] {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = ids.filter((id) => !SOURCES.some((s) => s.id === id));
  if (unknown.length > 0)
    throw new ConfigError(
      'INGEST_SOURCES',
      `unknown source ${unknown.join(', ')}; the registry has ${SOURCES.map((s) => s.id).join(', ')}`,
    );
  return ids.length === 0 ? SOURCES.map((s) => s.id) : ids;
}

export function readIngestConfig(env: NodeJS.ProcessEnv = process.env): Readonly<IngestConfig> {
  return configOf(ingestSettings.parse(env));
}

/** Every setting at its default, over `dataDir` and with the services it imports through: the base of a stack started in code. */
export function defaultIngestConfig(
  dataDir: string,
  upstreams: Pick<IngestConfig, 'graphAddr' | 'geoAddr'>,
): Readonly<IngestConfig> {
  return configOf({
    ...ingestSettings.defaults(),
    CIVIC_DATA_DIR: dataDir,
    GRAPH_ADDR: upstreams.graphAddr,
    GEO_ADDR: upstreams.geoAddr,
  });
}

function configOf(s: ReturnType<typeof ingestSettings.parse>): Readonly<IngestConfig> {
  return Object.freeze({
    host: s.INGEST_GRPC_HOST,
    port: s.INGEST_GRPC_PORT,
    dataDir: resolve(s.CIVIC_DATA_DIR),
    graphAddr: s.GRAPH_ADDR,
    geoAddr: s.GEO_ADDR,
    origin: originOf(s.CIVIC_SOURCES_MIRROR),
    schedule: s.INGEST_SCHEDULE,
    tickMs: s.INGEST_TICK_MS,
    sources: s.INGEST_SOURCES,
    env: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'ingest'),
  });
}

/** A mirror setting as an origin: an http(s) URL, else a folder (relative to the working directory). */
export function originOf(mirror: string | undefined): Origin {
  if (mirror === undefined) return { kind: 'public' };
  if (/^https?:\/\//.test(mirror)) return { kind: 'http', base: mirror };
  return { kind: 'folder', path: isAbsolute(mirror) ? mirror : join(process.cwd(), mirror) };
}
