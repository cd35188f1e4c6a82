import type { Region } from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { RegionInterner } from './region-interner.js';
import { SlugCache } from './slug-cache.js';
import { byteSize } from '../http/respond.js';

/** One rendering of an answer: its bytes (off the JS heap, maybe in shared chunks) and their strong ETag. */
export interface Rendered {
  body: Buffer | readonly Buffer[];
  etag: string;
}

/** A cached geo answer plus renderings memoised per layer/version. */
export interface GeoEntry {
  regions: Region[];
  rendered: Map<string, Rendered>;
}

/** What an entry weighs besides its renderings: its key, map and the references to its (interned, shared) regions. */
const ENTRY_BYTES = 256;
const REGION_REF_BYTES = 16;

/**
 * Gateway cache of point lookups, keyed by what changes the answer: the point, the date
 * and the caller's state scope, and indexed by the region slugs each answer contains (see
 * SlugCache). Entries are kept small for the garbage collector: regions interned,
 * renderings as Buffers. At most 20,000 entries and 32 MB, renderings included (weighed
 * again as each is memoised), least recently used first out.
 */
export class GeoCache {
  private readonly cache: SlugCache<GeoEntry>;
  private readonly regions = new RegionInterner();
  /** Each stored entry's key, so a rendering memoised on an entry can reweigh it. */
  private readonly keys = new WeakMap<GeoEntry, string>();

  constructor(maxEntries = 20_000, maxBytes = 32 * 2 ** 20) {
    this.cache = new SlugCache(maxEntries, Infinity, Date.now, { maxBytes, bytesOf: weigh });
  }

  get bytes(): number {
    return this.cache.bytes;
  }

  /** Memoises a rendering of `entry`, counting its bytes against the budget. */
  render(entry: GeoEntry, name: string, rendered: Rendered): void {
    entry.rendered.set(name, rendered);
    const key = this.keys.get(entry);
    if (key !== undefined) this.cache.reweigh(key);
  }

  static key(principal: Principal, lat: number, lng: number, date: string): string {
    const states = principal.entitlements?.states ?? [];
    return `${states.join(',')}|${date}|${lat}|${lng}`;
  }

  get size(): number {
    return this.cache.size;
  }

  get(key: string): GeoEntry | undefined {
    return this.cache.get(key);
  }

  mark(): number {
    return this.cache.mark();
  }

  set(key: string, regions: Region[], generation: number): GeoEntry {
    const entry: GeoEntry = { regions: this.regions.intern(regions), rendered: new Map() };
    const slugs = entry.regions.map((r) => r.slug);
    // Points answered with the same districts share one index group: a new point in a known
    // set costs a set insertion, not an index entry per district.
    this.cache.set(key, entry, slugs, generation, slugs.join('\n'));
    this.keys.set(entry, key);
    return entry;
  }

  invalidateSlugs(slugs: readonly string[]): number {
    return this.cache.invalidateSlugs(slugs);
  }

  /** Drops everything (a new region can contain any cached point). */
  clear(): number {
    return this.cache.clear();
  }
}

function weigh(entry: GeoEntry): number {
  let bytes = ENTRY_BYTES + REGION_REF_BYTES * entry.regions.length;
  for (const r of entry.rendered.values()) bytes += byteSize(r.body) + r.etag.length;
  return bytes;
}
