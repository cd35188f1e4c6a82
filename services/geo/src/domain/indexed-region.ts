import type { PreparedGeometry } from './point-in-polygon.js';
import type { Level, PolygonCoordinates, RegionGeometry, RegionRecord, RegionSource, Validity } from './region.js';

/**
 * A region as the index holds it: its fields, and its outline only as the prepared flat
 * arrays the point tests use. `geometry` is rebuilt as GeoJSON when asked (a boundary
 * request), so a national full-resolution map is held once, in typed arrays, not a second
 * time as millions of `[lng, lat]` arrays — and an index read back from a snapshot serves
 * the very same outlines as one just built.
 */
export class IndexedRegion implements RegionRecord {
  readonly slug: string;
  readonly name: string;
  readonly level: Level;
  readonly fips: string;
  readonly population?: number;
  readonly ocdId: string;
  readonly state: string;
  readonly validity?: Validity;
  readonly source?: RegionSource;

  constructor(
    r: RegionRecord,
    private readonly prepared: PreparedGeometry,
    private readonly geometryType: RegionGeometry['type'],
  ) {
    this.slug = r.slug;
    this.name = r.name;
    this.level = r.level;
    this.fips = r.fips;
    if (r.population !== undefined) this.population = r.population;
    this.ocdId = r.ocdId;
    this.state = r.state;
    if (r.validity !== undefined) this.validity = r.validity;
    if (r.source !== undefined) this.source = r.source;
  }

  /** The outline as GeoJSON: every ring closed (first vertex repeated last), rings without vertices left out. */
  get geometry(): RegionGeometry {
    const polygons = this.prepared.polygons.map((p): PolygonCoordinates => {
      const rings: number[][][] = [];
      let start = 0;
      for (const end of p.ringEnds) {
        const ring: number[][] = [];
        for (let v = start; v < end; v += 1) ring.push([p.xy[2 * v]!, p.xy[2 * v + 1]!]);
        rings.push(ring);
        start = end;
      }
      return rings;
    });
    return this.geometryType === 'Polygon' && polygons.length === 1
      ? { type: 'Polygon', coordinates: polygons[0]! }
      : { type: 'MultiPolygon', coordinates: polygons };
  }
}
