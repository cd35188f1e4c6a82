import { DistrictIndex } from './domain/district-index.js';
import { diffBoundaries, loadBoundaries, type BoundaryDiff, type BoundarySet } from './boundaries.js';
import type { GeoConfig } from './config.js';
import type { BoundaryStore } from './store/boundary-store.js';
import type { RegionRecord } from './domain/region.js';

/**
 * The geo service's current boundaries and index. A reload builds a new index off to the
 * side and swaps it in whole, so a lookup never sees a half-built one.
 */
export class GeoState {
  private set: BoundarySet | undefined;
  private index: DistrictIndex | undefined;
  private bySlug = new Map<string, RegionRecord[]>();

  constructor(
    private readonly config: Pick<GeoConfig, 'files' | 'populationCsv' | 'h3Resolution'>,
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

  /** (Re)loads every source; returns what changed since the previous load. */
  load(): { diff: BoundaryDiff; set: BoundarySet } {
    const next = loadBoundaries(this.config, this.store.layers());
    const index = DistrictIndex.build(next.regions, { resolution: this.config.h3Resolution });
    const diff = diffBoundaries(this.set, next);
    this.set = next;
    this.index = index;
    this.bySlug = groupBySlug(next.regions);
    return { diff, set: next };
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
