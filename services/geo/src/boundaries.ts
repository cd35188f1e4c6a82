import { createHash } from 'node:crypto';
import type { RegionRecord } from './domain/region.js';
import type { GeoConfig } from './config.js';
import { loadGeoJsonFile } from './store/geojson-file.js';
import { loadUsAtlas } from './store/us-atlas.js';

/** One loaded boundary data set: its regions, a fingerprint per slug and a version. */
export interface BoundarySet {
  regions: RegionRecord[];
  fingerprints: Map<string, string>;
  /** Changes whenever any region's attributes or geometry change. */
  version: string;
  skipped: { source: string; index: number; reason: string }[];
}

/** Changes between two boundary sets, by slug. */
export interface BoundaryDiff {
  created: string[];
  updated: string[];
  deleted: string[];
}

/** Loads us-atlas states and counties plus every configured file. */
export function loadBoundaries(config: Pick<GeoConfig, 'files' | 'populationCsv'>): BoundarySet {
  const regions = loadUsAtlas({ populationCsv: config.populationCsv });
  const skipped: BoundarySet['skipped'] = [];
  for (const file of config.files) {
    const report = loadGeoJsonFile(file.path, file.level, file.state === undefined ? {} : { state: file.state });
    regions.push(...report.regions);
    skipped.push(...report.skipped.map((s) => ({ source: file.path, ...s })));
  }
  const fingerprints = new Map(regions.map((r) => [r.slug, fingerprint(r)]));
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
  const diff: BoundaryDiff = { created: [], updated: [], deleted: [] };
  for (const [slug, fp] of next.fingerprints) {
    const old = before.get(slug);
    if (old === undefined) diff.created.push(slug);
    else if (old !== fp) diff.updated.push(slug);
  }
  for (const slug of before.keys()) if (!next.fingerprints.has(slug)) diff.deleted.push(slug);
  return diff;
}
