import { latLngToCell } from 'h3-js';
import { coverRegion } from './cell-cover.js';
import { containsPoint, prepareGeometry, type PreparedGeometry } from './point-in-polygon.js';
import { compareRegions, type RegionRecord } from './region.js';

/** Options for `DistrictIndex.build`. */
export interface DistrictIndexOptions {
  /** H3 resolution of the prefilter grid (0–15); 5 (mean cell edge ≈ 9.9 km) by default. */
  resolution?: number;
}

/** What a build produced, for logs and benchmarks. */
export interface DistrictIndexStats {
  readonly regions: number;
  readonly resolution: number;
  /** (interior cell, region) pairs at the index resolution. */
  readonly interiorCells: number;
  /** Distinct boundary cells (a cell shared by several regions counts once). */
  readonly boundaryCells: number;
  /** (boundary cell, region) pairs. */
  readonly boundaryEntries: number;
  /** Regions the grid cannot hold (e.g. rings drawn across the antimeridian), tested on every lookup. */
  readonly fallbackRegions: number;
  readonly buildMs: number;
}

/** What a cell says about the regions it meets. */
interface CellEntry {
  /** Regions the cell lies wholly inside: no polygon test needed. */
  interior: number[];
  /** Regions whose boundary crosses the cell: tested exactly. */
  boundary: number[];
}

/**
 * One map from cell to entry at the index resolution. Interior cells are not compacted:
 * at resolution 5 the whole US is ~50k cells, and one map probe per lookup is cheaper
 * than walking parent resolutions (each a string round trip through h3-js).
 */
interface Tables {
  cells: Map<string, CellEntry>;
  fallback: number[];
  interiorCount: number;
  boundaryCells: number;
  boundaryEntries: number;
}

/**
 * Point-in-district lookup over a fixed set of regions: an H3 prefilter (interior cells
 * answer at once, boundary cells narrow the exact test to a few candidates) in front of
 * the exact planar test of `containsPoint`, whose answer it always equals.
 */
export class DistrictIndex {
  private constructor(
    private readonly regions: readonly RegionRecord[],
    private readonly prepared: readonly PreparedGeometry[],
    private readonly resolution: number,
    private readonly tables: Tables,
    /** Build statistics. */
    readonly stats: DistrictIndexStats,
  ) {}

  /** Prepares every region's geometry and covers it with H3 cells. */
  static build(regions: readonly RegionRecord[], options: DistrictIndexOptions = {}): DistrictIndex {
    const started = performance.now();
    const resolution = options.resolution ?? 5;
    if (!Number.isInteger(resolution) || resolution < 0 || resolution > 15) {
      throw new RangeError(`H3 resolution must be an integer from 0 to 15, got ${resolution}`);
    }
    const sorted = [...regions].sort(compareRegions);
    const prepared = sorted.map((r) => prepareGeometry(r.geometry));
    const tables = buildTables(sorted, prepared, resolution);
    const stats: DistrictIndexStats = {
      regions: sorted.length,
      resolution,
      interiorCells: tables.interiorCount,
      boundaryCells: tables.boundaryCells,
      boundaryEntries: tables.boundaryEntries,
      fallbackRegions: tables.fallback.length,
      buildMs: performance.now() - started,
    };
    return new DistrictIndex(sorted, prepared, resolution, tables, stats);
  }

  /**
   * Every region containing the point, by level then slug. Throws a RangeError for a
   * latitude outside [-90, 90] or a longitude outside [-180, 180].
   */
  lookup(lat: number, lng: number): RegionRecord[] {
    assertCoordinates(lat, lng);
    const entry = this.tables.cells.get(latLngToCell(lat, lng, this.resolution));
    const hits: number[] = entry === undefined ? [] : [...entry.interior];
    for (const id of entry?.boundary ?? []) if (containsPoint(this.prepared[id]!, lng, lat)) hits.push(id);
    for (const id of this.tables.fallback) if (containsPoint(this.prepared[id]!, lng, lat)) hits.push(id);
    return hits.sort((a, b) => a - b).map((id) => this.regions[id]!);
  }

  /** The same answer as `lookup`, by testing every region exactly: the reference for tests. */
  bruteForce(lat: number, lng: number): RegionRecord[] {
    assertCoordinates(lat, lng);
    return this.regions.filter((_, id) => containsPoint(this.prepared[id]!, lng, lat));
  }
}

function assertCoordinates(lat: number, lng: number): void {
  if (!(lat >= -90 && lat <= 90)) throw new RangeError(`latitude must be within [-90, 90], got ${lat}`);
  if (!(lng >= -180 && lng <= 180)) throw new RangeError(`longitude must be within [-180, 180], got ${lng}`);
}

function buildTables(regions: readonly RegionRecord[], prepared: readonly PreparedGeometry[], res: number): Tables {
  const t: Tables = { cells: new Map(), fallback: [], interiorCount: 0, boundaryCells: 0, boundaryEntries: 0 };
  regions.forEach((region, id) => {
    const cover = coverRegion(region.geometry, prepared[id]!, res);
    if (cover === undefined) {
      t.fallback.push(id);
      return;
    }
    for (const cell of cover.interior) entryOf(t.cells, cell).interior.push(id);
    for (const cell of cover.boundary) entryOf(t.cells, cell).boundary.push(id);
    t.interiorCount += cover.interiorCount;
    t.boundaryEntries += cover.boundary.size;
  });
  for (const e of t.cells.values()) if (e.boundary.length > 0) t.boundaryCells += 1;
  return t;
}

function entryOf(cells: Map<string, CellEntry>, cell: string): CellEntry {
  let e = cells.get(cell);
  if (e === undefined) cells.set(cell, (e = { interior: [], boundary: [] }));
  return e;
}
