import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, ENVIRONMENTS, int, list, oneOf, optionalStr, str } from '@civicgraph/kit';
import type { Origin } from './fetch/fetch-file.js';
import { SOURCES } from './registry.js';

/** Ingest service configuration: the only reader of process.env in this service. */
export interface IngestConfig {
  /** gRPC bind host (INGEST_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (INGEST_GRPC_PORT, default 50056; 0 picks a free one). */
  port: number;
  /** `${CIVIC_DATA_DIR}` (default `.civicgraph`): the state and each source's current files, in `ingest/`. */
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
  /** Refresh sources on their schedule (INGEST_SCHEDULE, `on` default, or `off`). */
  schedule: boolean;
  /** How often the schedule looks for due sources (INGEST_TICK_MS, default 60000). */
  tickMs: number;
  /** Sources to keep (INGEST_SOURCES, comma-separated ids; default every source of the registry). */
  sources: string[];
  /** The environment this deployment serves (CIVIC_ENV, default test): ingest calls the graph and geo services as a service of it. */
  env: (typeof ENVIRONMENTS)[number];
  logLevel: string;
}

export function readIngestConfig(env: NodeJS.ProcessEnv = process.env): Readonly<IngestConfig> {
  const sources = list(env, 'INGEST_SOURCES');
  const unknown = sources.filter((id) => !SOURCES.some((s) => s.id === id));
  if (unknown.length > 0) throw new ConfigError('INGEST_SOURCES', `unknown source ${unknown.join(', ')}; the registry has ${SOURCES.map((s) => s.id).join(', ')}`);
  return Object.freeze({
    host: str(env, 'INGEST_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'INGEST_GRPC_PORT', 50056, 0, 65535),
    dataDir: resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')),
    graphAddr: address(env, 'GRAPH_ADDR', 'graph'),
    geoAddr: address(env, 'GEO_ADDR', 'geo'),
    origin: originOf(optionalStr(env, 'CIVIC_SOURCES_MIRROR')),
    schedule: oneOf(env, 'INGEST_SCHEDULE', ['on', 'off'] as const, 'on') === 'on',
    tickMs: int(env, 'INGEST_TICK_MS', 60_000, 100, 86_400_000),
    sources: sources.length === 0 ? SOURCES.map((s) => s.id) : sources,
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}

/** A service's host:port, which ingest cannot do without: it imports through that service. */
function address(env: NodeJS.ProcessEnv, name: string, service: string): string {
  const value = optionalStr(env, name);
  if (value === undefined) throw new ConfigError(name, `required: the ${service} service's host:port, which imports its own data`);
  return value;
}

/** A mirror setting as an origin: an http(s) URL, else a folder (relative to the working directory). */
export function originOf(mirror: string | undefined): Origin {
  if (mirror === undefined) return { kind: 'public' };
  if (/^https?:\/\//.test(mirror)) return { kind: 'http', base: mirror };
  return { kind: 'folder', path: isAbsolute(mirror) ? mirror : join(process.cwd(), mirror) };
}
