import type { Region } from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';

/** A cached geo answer plus renderings memoised per layer/version (body and ETag). */
export interface GeoEntry {
  regions: Region[];
  rendered: Map<string, { body: string; etag: string }>;
}

/**
 * Gateway cache of point lookups, keyed by what changes the answer: the point, the date
 * and the caller's state scope. Entries are indexed by the region slugs they contain so a
 * data-change event drops exactly the answers it names. A generation counter keeps an
 * answer computed before an invalidation from being stored after it.
 */
export class GeoCache {
  private readonly entries = new Map<string, GeoEntry>();
  private readonly bySlug = new Map<string, Set<string>>();
  private generation = 0;

  constructor(private readonly maxEntries = 20_000) {}

  static key(principal: Principal, lat: number, lng: number, date: string): string {
    const states = principal.entitlements?.states ?? [];
    return `${states.join(',')}|${date}|${lat}|${lng}`;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): GeoEntry | undefined {
    return this.entries.get(key);
  }

  /** Current generation; pass it back to `set` so stale answers are not stored. */
  mark(): number {
    return this.generation;
  }

  set(key: string, regions: Region[], generation: number): GeoEntry {
    const entry: GeoEntry = { regions, rendered: new Map() };
    if (generation !== this.generation) return entry;
    if (this.entries.size >= this.maxEntries) this.evictOldest();
    this.entries.set(key, entry);
    for (const r of regions) {
      let keys = this.bySlug.get(r.slug);
      if (keys === undefined) this.bySlug.set(r.slug, (keys = new Set()));
      keys.add(key);
    }
    return entry;
  }

  /** Drops every answer naming one of `slugs`; returns how many were dropped. */
  invalidateSlugs(slugs: readonly string[]): number {
    this.generation += 1;
    let dropped = 0;
    for (const slug of slugs) {
      for (const key of this.bySlug.get(slug) ?? []) dropped += this.drop(key) ? 1 : 0;
      this.bySlug.delete(slug);
    }
    return dropped;
  }

  /** Drops everything (a new region can contain any cached point). */
  clear(): number {
    this.generation += 1;
    const n = this.entries.size;
    this.entries.clear();
    this.bySlug.clear();
    return n;
  }

  private drop(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    for (const r of entry.regions) this.bySlug.get(r.slug)?.delete(key);
    return true;
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.drop(oldest.value);
  }
}
