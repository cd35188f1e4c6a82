import type { Region } from '@civicgraph/protos/civic/geo/v1/geo';

/**
 * One shared object per distinct region answer. Each decoded gRPC answer brings fresh
 * Region objects and strings, yet a country has a few thousand regions: holding the
 * decoded copies in the point cache made every cached answer kilobytes of heap that the
 * garbage collector copied and promoted. Interned, a cached answer is an array of
 * references. Two regions share an object only when every field is equal, so an
 * interned region is never stale; the table is bounded and starts over when full.
 */
export class RegionInterner {
  /** The last region interned under each slug, roles and share; one equal to it in every field shares it. */
  private readonly table = new Map<string, Region>();

  constructor(private readonly maxEntries = 50_000) {}

  get size(): number {
    return this.table.size;
  }

  intern(regions: readonly Region[]): Region[] {
    return regions.map((r) => {
      const key = `${r.slug}|${r.roles.join(',')}|${r.share ?? ''}`;
      const known = this.table.get(key);
      if (known !== undefined && sameRegion(known, r)) return known;
      if (known === undefined && this.table.size >= this.maxEntries) this.table.clear();
      const frozen = Object.freeze({ ...r, roles: Object.freeze([...r.roles]) }) as Region;
      this.table.set(key, frozen);
      return frozen;
    });
  }
}

/**
 * Every field equal, fields added to Region later included (a decoded message carries
 * every field of its type): compared field by field, which costs a fraction of
 * serialising both.
 */
function sameRegion(a: Region, b: Region): boolean {
  for (const k of Object.keys(b) as (keyof Region)[]) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return Object.keys(a).length === Object.keys(b).length;
}
