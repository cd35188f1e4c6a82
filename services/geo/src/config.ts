import { ConfigError, int, list, oneOf, optionalStr, str, ENVIRONMENTS, levelFromRest } from '@civicgraph/kit';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { DEFAULT_H3_RESOLUTION } from './domain/district-index.js';
import type { Validity } from './domain/region.js';
import { VALIDITY_FIELDS, validityProblem } from './domain/validity.js';
import type { GeocoderSelection } from './geocode/index.js';

/** A boundary file to load beside us-atlas: `level=path` or `level=path@state`. */
export interface BoundaryFile {
  level: Level;
  path: string;
  /** Lowercase USPS code, for files whose features do not name their state. */
  state?: string;
  /** When the file's boundaries are in force; absent → always. */
  validity?: Validity;
  /** Scale denominator of a generalised map; absent → the one its name states (`…_20m`), else full resolution. */
  scale?: number;
}

/** Geo service configuration: the only reader of process.env in this service. */
export interface GeoConfig {
  /** gRPC bind host (GEO_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (GEO_GRPC_PORT, default 50051; 0 picks a free one). */
  port: number;
  /**
   * Extra GeoJSON FeatureCollections: GEO_FILES (comma-separated `level=path[@state]`)
   * plus the entries of the JSON manifest named by GEO_MANIFEST, which can also date them:
   * `[{"level", "path", "state"?, "valid_from"?, "valid_to"?, "elections_from"?, "elections_to"?, "scale_denominator"?}]`.
   */
  files: BoundaryFile[];
  /** Census county/state population CSV (GEO_POPULATION_CSV; optional). */
  populationCsv: string | undefined;
  /** Imported boundaries: `${CIVIC_DATA_DIR}/geo` (CIVIC_DATA_DIR default `.civicgraph`). */
  storePath: string;
  /**
   * Where the index of the current boundaries is kept as a snapshot, read at start instead
   * of building it again: `${CIVIC_DATA_DIR}/geo-index`; absent: no snapshot.
   */
  snapshotDir?: string;
  /** How often the store is checked for imports by other processes (GEO_STORE_POLL_MS, default 1000). */
  storePollMs: number;
  /** H3 resolution of the prefilter (GEO_H3_RESOLUTION, default `DEFAULT_H3_RESOLUTION` (4), at most 6: finer ones only cost build time and memory). */
  h3Resolution: number;
  /**
   * Geocoder (GEO_GEOCODER): `embedded` (default; `lat,lng`, ZIP, `City, ST`, no network)
   * or `census` (street addresses via the public US Census Geocoder, GEO_CENSUS_URL).
   */
  geocoder: GeocoderSelection;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** Deployment environment word in event subjects (CIVIC_ENV, default test). */
  env: (typeof ENVIRONMENTS)[number];
  logLevel: string;
}

export function parseBoundaryFile(spec: string, variable = 'GEO_FILES'): BoundaryFile {
  const m = /^([a-z-]+)=([^@]+)(?:@([a-z]{2}))?$/.exec(spec);
  if (m === null) throw new ConfigError(variable, `expected level=path[@state], got "${spec}"`);
  const level = levelFromRest(m[1]!);
  if (level === undefined) throw new ConfigError(variable, `unknown level "${m[1]}"`);
  return m[3] === undefined ? { level, path: m[2]! } : { level, path: m[2]!, state: m[3] };
}

export function readGeoConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GeoConfig> {
  return Object.freeze({
    host: str(env, 'GEO_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'GEO_GRPC_PORT', 50051, 0, 65535),
    files: [...list(env, 'GEO_FILES').map((s) => parseBoundaryFile(s)), ...readManifest(optionalStr(env, 'GEO_MANIFEST'))],
    populationCsv: optionalStr(env, 'GEO_POPULATION_CSV'),
    storePath: join(resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')), 'geo'),
    snapshotDir: join(resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')), 'geo-index'),
    storePollMs: int(env, 'GEO_STORE_POLL_MS', 1_000, 50, 3_600_000),
    h3Resolution: int(env, 'GEO_H3_RESOLUTION', DEFAULT_H3_RESOLUTION, 0, 6),
    geocoder: geocoderSelection(env),
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}

type ManifestEntry = Record<string, unknown>;

/** Reads GEO_MANIFEST; every malformed entry stops the start, naming the variable and entry. */
export function readManifest(path: string | undefined, variable = 'GEO_MANIFEST'): BoundaryFile[] {
  if (path === undefined) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(variable, `cannot read ${path}: ${(err as Error).message}`);
  }
  if (!Array.isArray(entries)) throw new ConfigError(variable, `${path} must hold a JSON array of boundary files`);
  return entries.map((e: ManifestEntry, i) => manifestEntry(e, `${variable}[${i}]`));
}

function manifestEntry(e: ManifestEntry, where: string): BoundaryFile {
  const text = (k: string) => (typeof e[k] === 'string' ? (e[k] as string) : undefined);
  const file = parseBoundaryFile(`${text('level') ?? ''}=${text('path') ?? ''}${text('state') ? `@${text('state')}` : ''}`, where);
  const validity: Validity = {};
  for (const [field, key] of Object.entries(VALIDITY_FIELDS) as [keyof Validity, string][]) {
    const v = text(key);
    if (v !== undefined) validity[field] = v;
  }
  const problem = validityProblem(validity);
  if (problem !== undefined) throw new ConfigError(where, problem.detail);
  const scale = e['scale_denominator'];
  if (scale !== undefined && !(Number.isInteger(scale) && (scale as number) > 0)) throw new ConfigError(where, `scale_denominator must be a positive integer (20000000 for a 1:20M map), got ${JSON.stringify(scale)}`);
  return { ...file, ...(Object.keys(validity).length === 0 ? {} : { validity }), ...(scale === undefined ? {} : { scale: scale as number }) };
}

function geocoderSelection(env: NodeJS.ProcessEnv): GeocoderSelection {
  const kind = oneOf(env, 'GEO_GEOCODER', ['embedded', 'census'] as const, 'embedded');
  const baseUrl = optionalStr(env, 'GEO_CENSUS_URL');
  return kind === 'embedded' ? { kind } : { kind, census: baseUrl === undefined ? {} : { baseUrl } };
}
