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
  private readonly table = new Map<string, Region>();

  constructor(private readonly maxEntries = 50_000) {}

  get size(): number {
    return this.table.size;
  }

  intern(regions: readonly Region[]): Region[] {
    return regions.map((r) => {
      const key = identity(r);
      const known = this.table.get(key);
      if (known !== undefined) return known;
      if (this.table.size >= this.maxEntries) this.table.clear();
      const frozen = Object.freeze({ ...r, roles: Object.freeze([...r.roles]) }) as Region;
      this.table.set(key, frozen);
      return frozen;
    });
  }
}

/**
 * Every field of the region: decoded messages list their fields in one order (the
 * generated `createBase…`), so equal regions serialise equally, fields added later included.
 */
function identity(r: Region): string {
  return JSON.stringify(r);
}
