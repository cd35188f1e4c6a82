import { createHash } from 'node:crypto';
import type { RegionRecord } from './domain/region.js';
import { versionKey } from './domain/validity.js';
import type { GeoConfig } from './config.js';
import { loadGeoJsonFile } from './store/geojson-file.js';
import { loadUsAtlas } from './store/us-atlas.js';

/** One loaded boundary data set: its regions, a fingerprint per version key and a version. */
export interface BoundarySet {
  regions: RegionRecord[];
  fingerprints: Map<string, string>;
  /** Changes whenever any region's attributes or geometry change. */
  version: string;
  skipped: { source: string; index: number; reason: string }[];
}

/** Changes between two boundary sets, by region slug (a slug appears once per list). */
export interface BoundaryDiff {
  created: string[];
  updated: string[];
  deleted: string[];
}

/** Loads us-atlas states and counties, every configured file and every imported layer. */
export function loadBoundaries(config: Pick<GeoConfig, 'files' | 'populationCsv'>, imported: readonly RegionRecord[] = []): BoundarySet {
  const regions = [...loadUsAtlas({ populationCsv: config.populationCsv }), ...imported];
  const skipped: BoundarySet['skipped'] = [];
  for (const file of config.files) {
    const report = loadGeoJsonFile(file.path, file.level, file.state === undefined ? {} : { state: file.state });
    regions.push(...(file.validity === undefined ? report.regions : report.regions.map((r) => ({ ...r, validity: file.validity }))));
    skipped.push(...report.skipped.map((s) => ({ source: file.path, ...s })));
  }
  const fingerprints = new Map(regions.map((r) => [versionKey(r), fingerprint(r)]));
  const version = createHash('sha256')
    .update([...fingerprints].sort(([a], [b]) => (a < b ? -1 : 1)).map(([s, f]) => `${s}=${f}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  return { regions, fingerprints, version, skipped };
}

function fingerprint(r: RegionRecord): string {
  return createHash('sha256').update(JSON.stringify(r)).digest('base64url').slice(0, 22);
}

export function diffBoundaries(prev: BoundarySet | undefined, next: BoundarySet): BoundaryDiff {
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
