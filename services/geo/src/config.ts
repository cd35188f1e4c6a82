import {
  COMMON_SETTINGS,
  ConfigError,
  defineSettings,
  grpcBindSettings,
  integer,
  parsed,
  text,
  word,
  ENVIRONMENTS,
  levelFromRest,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';
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
  /** gRPC bind host (GEO_GRPC_HOST). */
  host: string;
  /** gRPC port (GEO_GRPC_PORT; 0 picks a free one). */
  port: number;
  /**
   * Extra GeoJSON FeatureCollections: GEO_FILES (comma-separated `level=path[@state]`)
   * plus the entries of the JSON manifest named by GEO_MANIFEST, which can also date them:
   * `[{"level", "path", "state"?, "valid_from"?, "valid_to"?, "elections_from"?, "elections_to"?, "scale_denominator"?}]`.
   */
  files: BoundaryFile[];
  /** Census county/state population CSV (GEO_POPULATION_CSV; optional). */
  populationCsv: string | undefined;
  /** Imported boundaries: `${CIVIC_DATA_DIR}/geo` . */
  storePath: string;
  /**
   * Where the index of the current boundaries is kept as a snapshot, read at start instead
   * of building it again: `${CIVIC_DATA_DIR}/geo-index`; absent: no snapshot.
   */
  snapshotDir?: string;
  /** How often the store is checked for imports by other processes (GEO_STORE_POLL_MS). */
  storePollMs: number;
  /** H3 resolution of the prefilter (GEO_H3_RESOLUTION, at most 6: finer ones only cost build time and memory). */
  h3Resolution: number;
  /**
   * Geocoder (GEO_GEOCODER): `embedded` (default; `lat,lng`, ZIP, `City, ST`, no network)
   * or `census` (street addresses via the public US Census Geocoder, GEO_CENSUS_URL).
   */
  geocoder: GeocoderSelection;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  /** Deployment environment word in event subjects (CIVIC_ENV). */
  env: (typeof ENVIRONMENTS)[number];
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
}

export function parseBoundaryFile(spec: string, variable = 'GEO_FILES'): BoundaryFile {
  const m = /^([a-z-]+)=([^@]+)(?:@([a-z]{2}))?$/.exec(spec);
  if (m === null) throw new ConfigError(variable, `expected level=path[@state], got "${spec}"`);
  const level = levelFromRest(m[1]!);
  if (level === undefined) throw new ConfigError(variable, `unknown level "${m[1]}"`);
  return m[3] === undefined ? { level, path: m[2]! } : { level, path: m[2]!, state: m[3] };
}

/** The geo service's environment: every variable it reads, with its default and meaning. */
export const geoSettings = defineSettings('geo', {
  ...grpcBindSettings('GEO', 50051),
  CIVIC_DATA_DIR: {
    ...COMMON_SETTINGS.CIVIC_DATA_DIR,
    description: 'folder of the embedded stores: boundaries in `geo/`, their index snapshot in `geo-index/`',
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  NATS_URL: COMMON_SETTINGS.NATS_URL,
  GEO_FILES: {
    type: parsed((raw) =>
      raw
        .split(',')
        .map((spec) => spec.trim())
        .filter((spec) => spec !== '')
        .map((spec) => parseBoundaryFile(spec)),
    ),
    default: '',
    description: 'extra GeoJSON boundary files: comma-separated `level=path[@state]`',
  },
  GEO_MANIFEST: {
    type: parsed((path) => readManifest(path)),
    description:
      'JSON list of boundary files `{level, path, state?, valid_from?, valid_to?, elections_from?, elections_to?, scale_denominator?}`',
  },
  GEO_POPULATION_CSV: { type: text(), description: 'Census county estimates CSV (names and populations)' },
  GEO_STORE_POLL_MS: {
    type: integer(50, 3_600_000),
    default: '1000',
    description: 'how often the boundary store is checked for imports by other processes',
  },
  GEO_H3_RESOLUTION: {
    type: integer(0, 6),
    default: String(DEFAULT_H3_RESOLUTION),
    description:
      'H3 resolution of the cell tables (0–6; finer ones only cost build time and memory); a change builds a new index snapshot',
  },
  GEO_GEOCODER: {
    type: word(['embedded', 'census'] as const),
    default: 'embedded',
    description:
      '`embedded` (`lat,lng`, ZIP, `City, ST`; no network) or `census` (street addresses via the US Census Geocoder)',
  },
  GEO_CENSUS_URL: { type: text(), description: "base URL of the Census geocoder; unset → Census's public one" },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

type GeoSettingValues = ReturnType<typeof geoSettings.parse>;

export function readGeoConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GeoConfig> {
  return configOf(geoSettings.parse(env));
}

/** Every setting at its default, over `dataDir`: the base of a stack started in code. */
export function defaultGeoConfig(dataDir: string): Readonly<GeoConfig> {
  return configOf({ ...geoSettings.defaults(), CIVIC_DATA_DIR: dataDir });
}

function configOf(s: GeoSettingValues): Readonly<GeoConfig> {
  const dataDir = resolve(s.CIVIC_DATA_DIR);
  return Object.freeze({
    host: s.GEO_GRPC_HOST,
    port: s.GEO_GRPC_PORT,
    files: [...s.GEO_FILES, ...(s.GEO_MANIFEST ?? [])],
    populationCsv: s.GEO_POPULATION_CSV,
    storePath: join(dataDir, 'geo'),
    snapshotDir: join(dataDir, 'geo-index'),
    storePollMs: s.GEO_STORE_POLL_MS,
    h3Resolution: s.GEO_H3_RESOLUTION,
    geocoder: geocoderSelection(s),
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'geo'),
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
  const file = parseBoundaryFile(
    `${text('level') ?? ''}=${text('path') ?? ''}${text('state') ? `@${text('state')}` : ''}`,
    where,
  );
  const validity: Validity = {};
  for (const [field, key] of Object.entries(VALIDITY_FIELDS) as [keyof Validity, string][]) {
    const v = text(key);
    if (v !== undefined) validity[field] = v;
  }
  const problem = validityProblem(validity);
  if (problem !== undefined) throw new ConfigError(where, problem.detail);
  const scale = e['scale_denominator'];
  if (scale !== undefined && !(Number.isInteger(scale) && (scale as number) > 0))
    throw new ConfigError(
      where,
      `scale_denominator must be a positive integer (20000000 for a 1:20M map), got ${JSON.stringify(scale)}`,
    );
  return {
    ...file,
    ...(Object.keys(validity).length === 0 ? {} : { validity }),
    ...(scale === undefined ? {} : { scale: scale as number }),
  };
}

function geocoderSelection(s: GeoSettingValues): GeocoderSelection {
  const baseUrl = s.GEO_CENSUS_URL;
  return s.GEO_GEOCODER === 'embedded'
    ? { kind: 'embedded' }
    : { kind: 'census', census: baseUrl === undefined ? {} : { baseUrl } };
}
