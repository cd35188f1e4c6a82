import { getResolution, latLngToCell } from 'h3-js';
import { coverRegion } from './cell-cover.js';
import { parentOf, splitCell } from './h3-parent.js';
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
  /** Compacted interior cells, over all regions. */
  readonly interiorCells: number;
  /** The interior cells at the index resolution before compaction. */
  readonly interiorCellsUncompacted: number;
  /** Distinct boundary cells (a cell shared by several regions counts once). */
  readonly boundaryCells: number;
  /** (boundary cell, region) pairs. */
  readonly boundaryEntries: number;
  /** Regions the grid cannot hold (e.g. rings drawn across the antimeridian), tested on every lookup. */
  readonly fallbackRegions: number;
  readonly buildMs: number;
}

interface Tables {
  interior: Map<string, number[]>;
  interiorResolutions: number[];
  boundary: Map<string, number[]>;
  fallback: number[];
  interiorCount: number;
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
      interiorCells: [...tables.interior.values()].reduce((n, ids) => n + ids.length, 0),
      interiorCellsUncompacted: tables.interiorCount,
      boundaryCells: tables.boundary.size,
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
    const { interior, interiorResolutions, boundary, fallback } = this.tables;
    const cell = latLngToCell(lat, lng, this.resolution);
    const split = splitCell(cell);
    const hits: number[] = [];
    for (const res of interiorResolutions) {
      const ids = interior.get(res === this.resolution ? cell : parentOf(split, res));
      if (ids !== undefined) hits.push(...ids);
    }
    for (const id of boundary.get(cell) ?? []) if (containsPoint(this.prepared[id]!, lng, lat)) hits.push(id);
    for (const id of fallback) if (containsPoint(this.prepared[id]!, lng, lat)) hits.push(id);
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
  const t: Tables = { interior: new Map(), interiorResolutions: [], boundary: new Map(), fallback: [], interiorCount: 0, boundaryEntries: 0 };
  regions.forEach((region, id) => {
    const cover = coverRegion(region.geometry, prepared[id]!, res);
    if (cover === undefined) {
      t.fallback.push(id);
      return;
    }
    for (const cell of cover.interior) append(t.interior, cell, id);
    for (const cell of cover.boundary) append(t.boundary, cell, id);
    t.interiorCount += cover.interiorCount;
    t.boundaryEntries += cover.boundary.size;
  });
  const resolutions = new Set([...t.interior.keys()].map(getResolution));
  t.interiorResolutions = [...resolutions].sort((a, b) => a - b);
  return t;
}

function append(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (ids === undefined) map.set(key, [id]);
  else ids.push(id);
}
