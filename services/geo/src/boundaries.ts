import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { scaleFromName, storedScale, type RegionRecord } from './domain/region.js';
import { effectiveRegions, type MapLayer } from './domain/timeline.js';
import { versionKey } from './domain/validity.js';
import type { BoundaryFile, GeoConfig } from './config.js';
import type { StoredLayer } from './store/boundary-store.js';
import { loadGeoJsonFile } from './store/geojson-file.js';
import { loadUsAtlas } from './store/us-atlas.js';

/** One loaded boundary data set: its regions, a fingerprint per version key and a version. */
export interface BoundarySet {
  /** The versions served, each with the validity it has once newer maps supersede older ones. */
  regions: RegionRecord[];
  fingerprints: Map<string, string>;
  /** Changes whenever any region's attributes, validity or geometry change. */
  version: string;
  /** Features of the configured files left out, with why. */
  leftOut: { source: string; index: number; reason: string }[];
}

/** Changes between two boundary sets, by region slug (a slug appears once per list). */
export interface BoundaryDiff {
  created: string[];
  updated: string[];
  deleted: string[];
}

/**
 * Loads every map — us-atlas states and counties, the configured files, the imported
 * layers — and serves each level and state as one timeline (`effectiveRegions`). On the
 * same start date an import outranks a configured file, a later configured file an earlier
 * one, and any of them us-atlas.
 */
export function loadBoundaries(
  config: Pick<GeoConfig, 'files' | 'populationCsv'>,
  imported: readonly StoredLayer[] = [],
): BoundarySet {
  const layers: MapLayer[] = splitByState(loadUsAtlas({ populationCsv: config.populationCsv }), undefined, 0);
  const leftOut: BoundarySet['leftOut'] = [];
  config.files.forEach((file, i) => {
    const report = loadConfiguredFile(file);
    layers.push(...splitByState(report.regions, file.validity, i + 1));
    leftOut.push(
      ...[...report.skipped, ...report.rejected].map((s) => ({ source: file.path, index: s.index, reason: s.reason })),
    );
  });
  const importRank = config.files.length + 1;
  for (const stored of imported)
    layers.push(...splitByState(stored.regions.map(withScale), stored.regions[0]?.validity, importRank));
  const regions = effectiveRegions(layers);
  const fingerprints = new Map(regions.map((r) => [versionKey(r), fingerprint(r)]));
  const version = createHash('sha256')
    .update(
      [...fingerprints]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([s, f]) => `${s}=${f}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
  return { regions, fingerprints, version, leftOut };
}

function loadConfiguredFile(file: BoundaryFile): ReturnType<typeof loadGeoJsonFile> {
  const report = loadGeoJsonFile(file.path, file.level, file.state === undefined ? {} : { state: file.state });
  const scale = file.scale ?? scaleFromName(basename(file.path));
  const source = { name: basename(file.path), ...(scale === undefined ? {} : { scale }) };
  const regions = report.regions.map((r): RegionRecord => ({
    ...r,
    ...(file.validity === undefined ? {} : { validity: file.validity }),
    source,
  }));
  return { ...report, regions };
}

/** A version stored before imports stamped a scale, with the one its file's name states (`cb_2024_us_cd119_20m`), else full resolution. */
function withScale(r: RegionRecord): RegionRecord {
  if (r.source === undefined || r.source.scale !== undefined) return r;
  return { ...r, source: { ...r.source, scale: storedScale(r) } };
}

/** One layer per (level, state) of regions sharing one validity. */
function splitByState(regions: readonly RegionRecord[], validity: RegionRecord['validity'], rank: number): MapLayer[] {
  const layers = new Map<string, MapLayer>();
  for (const r of regions) {
    const key = `${r.level}|${r.state}`;
    let layer = layers.get(key);
    if (layer === undefined)
      layers.set(
        key,
        (layer = { level: r.level, state: r.state, validity, rank, scale: r.source?.scale ?? 0, regions: [] }),
      );
    (layer.regions as RegionRecord[]).push(r);
  }
  return [...layers.values()];
}

function fingerprint(r: RegionRecord): string {
  return createHash('sha256').update(JSON.stringify(r)).digest('base64url').slice(0, 22);
}

export function diffBoundaries(
  prev: Pick<BoundarySet, 'fingerprints'> | undefined,
  next: Pick<BoundarySet, 'fingerprints'>,
): BoundaryDiff {
  const before = prev?.fingerprints ?? new Map<string, string>();
  const sets = { created: new Set<string>(), updated: new Set<string>(), deleted: new Set<string>() };
  for (const [key, fp] of next.fingerprints) {
    const old = before.get(key);
    if (old === undefined) sets.created.add(slugOf(key));
    else if (old !== fp) sets.updated.add(slugOf(key));
  }
  for (const key of before.keys()) if (!next.fingerprints.has(key)) sets.deleted.add(slugOf(key));
  return { created: [...sets.created], updated: [...sets.updated], deleted: [...sets.deleted] };
}

/** The region slug of a version key (`region:nc-cd-1@2023-01-03` → `region:nc-cd-1`). */
function slugOf(key: string): string {
  const at = key.indexOf('@');
  return at < 0 ? key : key.slice(0, at);
}
