import { isAbsolute, join, resolve } from 'node:path';
import { COMMON_SETTINGS, defineSettings, grpcBindSettings, integer, onOff, parsed, text, ConfigError, ENVIRONMENTS } from '@civicgraph/kit';
import { STORE_SETTINGS, storeSelectionOf, type StoreSelection } from '@civicgraph/graph';
import type { Origin } from './fetch/fetch-file.js';
import { SOURCES } from './registry.js';

/** Ingest service configuration: the only reader of process.env in this service. */
export interface IngestConfig {
  /** gRPC bind host (INGEST_GRPC_HOST). */
  host: string;
  /** gRPC port (INGEST_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** `${CIVIC_DATA_DIR}`: state in `ingest/`, boundaries in `geo/`, the embedded graph in `graph/`. */
  dataDir: string;
  /** The graph store imports write to (GRAPH_STORE and ARANGO_*, as the graph service reads them). */
  graphStore: StoreSelection;
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
  /** The subject word of events (CIVIC_ENV). */
  env: (typeof ENVIRONMENTS)[number];
  logLevel: string;
}

/** The ingest service's environment: every variable it reads, with its default and meaning. */
export const ingestSettings = defineSettings('ingest', {
  ...grpcBindSettings('INGEST', 50056),
  CIVIC_DATA_DIR: { ...COMMON_SETTINGS.CIVIC_DATA_DIR, description: 'folder of the embedded stores: source state and copies in `ingest/`, boundaries in `geo/`, the embedded graph in `graph/`' },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  ...STORE_SETTINGS,
  CIVIC_SOURCES_MIRROR: { type: text(), description: 'a folder or an `http(s)://` base laid out like `shared/data`, read instead of the public hosts' },
  INGEST_SCHEDULE: { type: onOff(), default: 'on', description: '`on`: run due sources at start and as they come due; `off`: only when asked' },
  INGEST_TICK_MS: { type: integer(100, 86_400_000), default: '60000', description: 'how often the schedule looks for due sources' },
  INGEST_SOURCES: { type: parsed(sourceList), default: '', description: 'the sources this deployment keeps (comma-separated ids); empty → every source of the registry' },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
});

/** INGEST_SOURCES: registry ids; none named → all of them. */
function sourceList(raw: string): string[] {
  const ids = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = ids.filter((id) => !SOURCES.some((s) => s.id === id));
  if (unknown.length > 0) throw new ConfigError('INGEST_SOURCES', `unknown source ${unknown.join(', ')}; the registry has ${SOURCES.map((s) => s.id).join(', ')}`);
  return ids.length === 0 ? SOURCES.map((s) => s.id) : ids;
}

export function readIngestConfig(env: NodeJS.ProcessEnv = process.env): Readonly<IngestConfig> {
  return configOf(ingestSettings.parse(env));
}

/** Every setting at its default, over `dataDir`: the base of a stack started in code. */
export function defaultIngestConfig(dataDir: string): Readonly<IngestConfig> {
  return configOf({ ...ingestSettings.defaults(), CIVIC_DATA_DIR: dataDir });
}

function configOf(s: ReturnType<typeof ingestSettings.parse>): Readonly<IngestConfig> {
  return Object.freeze({
    host: s.INGEST_GRPC_HOST,
    port: s.INGEST_GRPC_PORT,
    dataDir: resolve(s.CIVIC_DATA_DIR),
    graphStore: storeSelectionOf(s),
    origin: originOf(s.CIVIC_SOURCES_MIRROR),
    schedule: s.INGEST_SCHEDULE,
    tickMs: s.INGEST_TICK_MS,
    sources: s.INGEST_SOURCES,
    env: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
  });
}

/** A mirror setting as an origin: an http(s) URL, else a folder (relative to the working directory). */
export function originOf(mirror: string | undefined): Origin {
  if (mirror === undefined) return { kind: 'public' };
  if (/^https?:\/\//.test(mirror)) return { kind: 'http', base: mirror };
  return { kind: 'folder', path: isAbsolute(mirror) ? mirror : join(process.cwd(), mirror) };
}
