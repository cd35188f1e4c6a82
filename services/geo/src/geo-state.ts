import { mkdirSync } from 'node:fs';
import { DistrictIndex } from './domain/district-index.js';
import { diffBoundaries, loadBoundaries, type BoundaryDiff, type BoundarySet } from './boundaries.js';
import type { GeoConfig } from './config.js';
import type { BoundaryStore } from './store/boundary-store.js';
import type { RegionRecord } from './domain/region.js';
import { loadIndexSnapshot, saveIndexSnapshot, snapshotName, type SnapshotInputs } from './store/index-snapshot.js';

/** A loaded boundary set without its regions (the index holds them). */
export type LoadedSet = Omit<BoundarySet, 'regions'>;

/** What a load did: what changed, the set now served, and how the index was had. */
export interface LoadResult {
  diff: BoundaryDiff;
  set: LoadedSet;
  regions: number;
  /**
   * `unchanged`: the inputs are those already served; `snapshot`: read from the snapshot
   * of these inputs; `built`: built, and the snapshot written (`snapshotError` says why not).
   */
  index: 'unchanged' | 'snapshot' | 'built';
  snapshotError?: string;
}

/**
 * The geo service's current boundaries and index. A reload builds a new index off to the
 * side and swaps it in whole, so a lookup never sees a half-built one. Each index built is
 * kept as a snapshot under `snapshotDir`, named by everything it was built from, so a
 * restart (or another replica on the same volume) over the same data reads it instead of
 * building it again.
 */
export class GeoState {
  private set: LoadedSet | undefined;
  private index: DistrictIndex | undefined;
  private bySlug = new Map<string, RegionRecord[]>();
  private servedName: string | undefined;

  constructor(
    private readonly config: Pick<GeoConfig, 'files' | 'populationCsv' | 'h3Resolution' | 'snapshotDir'>,
    private readonly store: BoundaryStore,
  ) {}

  /** Every version of a region that is served on some date, oldest first (undated versions first). */
  versions(slug: string): readonly RegionRecord[] {
    return this.bySlug.get(slug) ?? [];
  }

  current(): { index: DistrictIndex; version: string } {
    if (this.index === undefined || this.set === undefined) throw new Error('boundaries not loaded');
    return { index: this.index, version: this.set.version };
  }

  /** (Re)loads every source, or reads the snapshot of the same sources; returns what changed since the previous load. */
  load(): LoadResult {
    // Named before the sources are read: an import committed (or a file changed) meanwhile names a newer snapshot, and its reload follows.
    const name = snapshotName(this.inputs());
    if (name === this.servedName && this.set !== undefined && this.index !== undefined) {
      return {
        diff: { created: [], updated: [], deleted: [] },
        set: this.set,
        regions: this.index.regions.length,
        index: 'unchanged',
      };
    }
    const dir = this.config.snapshotDir;
    const snapshot = dir === undefined ? undefined : loadIndexSnapshot(dir, name);
    if (snapshot !== undefined) return { ...this.install(snapshot.set, snapshot.index, name), index: 'snapshot' };
    const next = loadBoundaries(this.config, this.store.layers());
    const index = DistrictIndex.build(next.regions, { resolution: this.config.h3Resolution });
    const set: LoadedSet = { fingerprints: next.fingerprints, version: next.version, leftOut: next.leftOut };
    const result: LoadResult = { ...this.install(set, index, name), index: 'built' };
    if (dir === undefined) return result;
    try {
      mkdirSync(dir, { recursive: true });
      saveIndexSnapshot(dir, name, { set, index });
    } catch (err) {
      result.snapshotError = (err as Error).message;
    }
    return result;
  }

  private install(set: LoadedSet, index: DistrictIndex, name: string): Omit<LoadResult, 'index'> {
    const diff = diffBoundaries(this.set, set);
    this.set = set;
    this.index = index;
    this.bySlug = groupBySlug(index.regions);
    this.servedName = name;
    return { diff, set, regions: index.regions.length };
  }

  private inputs(): SnapshotInputs {
    return {
      storeId: this.store.id(),
      storeGeneration: this.store.generation(),
      files: this.config.files,
      populationCsv: this.config.populationCsv,
      resolution: this.config.h3Resolution,
    };
  }
}

function groupBySlug(regions: readonly RegionRecord[]): Map<string, RegionRecord[]> {
  const out = new Map<string, RegionRecord[]>();
  for (const r of regions) {
    const list = out.get(r.slug);
    if (list === undefined) out.set(r.slug, [r]);
    else list.push(r);
  }
  for (const list of out.values()) list.sort((a, b) => (a.validity?.from ?? '').localeCompare(b.validity?.from ?? ''));
  return out;
}
