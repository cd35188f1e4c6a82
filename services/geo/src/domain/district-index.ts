import { buildAnswerGrid, lookupAnswerGrid, type AnswerGrid } from './engine/answer-grid.js';
import { AnswerSets } from './engine/answer-sets.js';
import { buildCellTable, lookupCellEntry, lookupCellTable, type CellTable } from './engine/cell-table.js';
import { SquareCells } from './engine/square-cells.js';
import { indexBytes } from './engine/memory.js';
import { containsPoint, prepareGeometry, type PreparedGeometry } from './point-in-polygon.js';
import { IndexedRegion } from './indexed-region.js';
import { compareRegions, type RegionRecord } from './region.js';

/** Options for `DistrictIndex.build`. */
export interface DistrictIndexOptions {
  /** H3 resolution of the prefilter grid (0–15); `DEFAULT_H3_RESOLUTION` by default. */
  resolution?: number;
}

/** What a build produced, for logs and benchmarks. */
export interface DistrictIndexStats {
  readonly regions: number;
  readonly resolution: number;
  /** (boundary cell, region) pairs where a region none of whose edges comes near the cell holds all of it. */
  readonly interiorCells: number;
  /** Distinct boundary cells: cells some region's edges may cross (a cell shared by several regions counts once). */
  readonly boundaryCells: number;
  /** (boundary cell, region) pairs: the region's edges may cross the cell. */
  readonly boundaryEntries: number;
  /** Regions the grid cannot hold (e.g. rings drawn across the antimeridian), tested on every lookup. */
  readonly fallbackRegions: number;
  readonly buildMs: number;
  /** Vertices over all regions' rings (closing vertices not counted). */
  readonly vertices: number;
  /** Nodes of the boxes' quadtrees, and leaves among them. */
  readonly treeNodes: number;
  readonly treeLeaves: number;
  /** (leaf, member polygon) pairs decided by the local test, and the edges they keep (over all leaves). */
  readonly parts: number;
  readonly partEdges: number;
  /** Refined 1° blocks of the answer grid, and how many distinct answers it stores. */
  readonly gridBlocks: number;
  readonly answerSets: number;
  /** Approximate bytes held by the index (prepared geometry, cell table and trees, answer grid and sets), not counting the regions themselves. */
  readonly bytes: number;
  readonly bytesPerVertex: number;
}

/**
 * The H3 resolution of the prefilter unless told otherwise: 4 (mean cell edge ≈ 22.6 km).
 * Its cells hold more of the answer grid's squares whole than resolution 5's, so more
 * near-boundary lookups skip `latLngToCell`; the per-cell trees split as deep as the edges
 * need either way.
 */
export const DEFAULT_H3_RESOLUTION = 4;

/** Resolutions whose cells the grid's squares may name (see `SquareCells`): cells small enough for its margin, large enough to hold squares. */
const SQUARE_CELL_RESOLUTIONS = new Set([4, 5]);

/** Squares per degree of the answer grid (a power of two): 1/64° ≈ 1.7 km north–south. */
const GRID_PER_DEGREE = 64;

/**
 * Point-in-district lookup over a fixed set of regions, always equal to testing every
 * region with the exact planar test of `containsPoint` (see `bruteForce`), points on
 * edges and vertices included:
 *
 * 1. an exact answer grid (`AnswerGrid`): most points fall in a 1/64° square no edge
 *    comes near, whose answer was stored at build — no H3 call, no polygon test;
 * 2. otherwise the point's H3 cell at `resolution` (`CellTable`) — named by the square itself
 *    when the whole square lies in one cell (`SquareCells`), else by `latLngToCell`: a quadtree over the
 *    cell's box leads to a leaf listing the regions that hold all of it (one stored answer)
 *    and, for each region whose boundary crosses the leaf, its parity at one corner and
 *    the few edges meeting the leaf (a dozen or two even on full-resolution TIGER
 *    outlines), from which `localParity` decides the point exactly. A cell that no
 *    boundary crosses has no entry; a point there is tested against the regions whose
 *    bounding box holds it, as are regions too wide for H3 on every lookup.
 */
export class DistrictIndex {
  private constructor(
    /** The regions in index order (by level, then slug), each holding its outline in the index's arrays. */
    readonly regions: readonly IndexedRegion[],
    private readonly prepared: readonly PreparedGeometry[],
    private readonly table: CellTable,
    private readonly grid: AnswerGrid,
    private readonly answers: AnswerSets<RegionRecord>,
    /** Build statistics. */
    readonly stats: DistrictIndexStats,
  ) {}

  /** Prepares every region's geometry and builds the cell table and answer grid. */
  static build(regions: readonly RegionRecord[], options: DistrictIndexOptions = {}): DistrictIndex {
    const started = performance.now();
    const resolution = options.resolution ?? DEFAULT_H3_RESOLUTION;
    if (!Number.isInteger(resolution) || resolution < 0 || resolution > 15) {
      throw new RangeError(`H3 resolution must be an integer from 0 to 15, got ${resolution}`);
    }
    const sorted = [...regions].sort(compareRegions);
    const prepared = sorted.map((r) => prepareGeometry(r.geometry));
    const indexed = sorted.map((r, i) => new IndexedRegion(r, prepared[i]!, r.geometry.type));
    const answers = new AnswerSets<RegionRecord>(indexed);
    const table = buildCellTable(prepared, resolution, (ids) => answers.intern(ids));
    const squares = new SquareCells(table);
    const grid = buildAnswerGrid(
      prepared,
      GRID_PER_DEGREE,
      (lat, lng) => answers.intern(tableLookup(table, answers, lat, lng)),
      SQUARE_CELL_RESOLUTIONS.has(resolution) ? (x0, y0, x1, y1) => squares.entryHolding(x0, y0, x1, y1) : undefined,
    );
    const stats = statsOf(sorted, prepared, table, grid, answers.records, performance.now() - started);
    return new DistrictIndex(indexed, prepared, table, grid, answers, stats);
  }

  /**
   * Every region containing the point, by level then slug. Throws a RangeError for a
   * latitude outside [-90, 90] or a longitude outside [-180, 180].
   */
  lookup(lat: number, lng: number): RegionRecord[] {
    assertCoordinates(lat, lng);
    const answer = lookupAnswerGrid(this.grid, lat, lng);
    if (answer >= 0) return this.answers.records[answer]!.slice();
    const more: number[] = [];
    const set =
      answer === -1
        ? lookupCellTable(this.table, lat, lng, more)
        : lookupCellEntry(this.table, -2 - answer, lat, lng, more);
    if (more.length === 0 && set >= 0) return this.answers.records[set]!.slice();
    return merged(this.answers, set, more).map((id) => this.regions[id]!);
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

/** Ids of the regions containing the point, by the cell table, ascending (the canonical order). */
function tableLookup(table: CellTable, answers: AnswerSets<RegionRecord>, lat: number, lng: number): number[] {
  const more: number[] = [];
  return merged(answers, lookupCellTable(table, lat, lng, more), more);
}

/** An answer set (none when -1) and further ids, as one ascending list. */
function merged(answers: AnswerSets<RegionRecord>, set: number, more: number[]): number[] {
  if (!isAscending(more)) more.sort((a, b) => a - b);
  if (set < 0) return more;
  const base = answers.ids[set]!;
  const out: number[] = [];
  let i = 0,
    j = 0;
  while (i < base.length || j < more.length)
    out.push(j >= more.length || (i < base.length && base[i]! < more[j]!) ? base[i++]! : more[j++]!);
  return out;
}

function isAscending(ids: readonly number[]): boolean {
  for (let k = 1; k < ids.length; k += 1) if (ids[k - 1]! > ids[k]!) return false;
  return true;
}

function statsOf(
  regions: readonly RegionRecord[],
  prepared: readonly PreparedGeometry[],
  t: CellTable,
  grid: AnswerGrid,
  answers: readonly (readonly RegionRecord[])[],
  buildMs: number,
): DistrictIndexStats {
  const vertices = t.polygons.reduce((n, p) => n + p.xy.length / 2 - p.ringEnds.length, 0);
  const bytes = indexBytes(prepared, t, grid, answers);
  const { nodes, leafCount, partCount, edgeCount } = t.trees;
  return {
    regions: regions.length,
    resolution: t.resolution,
    interiorCells: t.cellIds.length,
    boundaryCells: t.entries.size,
    boundaryEntries: t.candidateIds.length,
    fallbackRegions: t.fallback.length,
    buildMs,
    vertices,
    treeNodes: nodes.length,
    treeLeaves: leafCount,
    parts: partCount,
    partEdges: edgeCount,
    gridBlocks: grid.refinedBlocks,
    answerSets: answers.length,
    bytes,
    bytesPerVertex: vertices === 0 ? 0 : bytes / vertices,
  };
}
