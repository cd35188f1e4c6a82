import { cellToBoundary, cellToLatLng, latLngToCell } from 'h3-js';
import { boundaryCells } from '../cell-cover.js';
import { containsPoint, polygonContains, type PreparedGeometry, type PreparedPolygon } from '../point-in-polygon.js';
import { BoxGrid } from './box-grid.js';
import { BoxTreeBuilder, lookupBoxTree, type BoxTrees, type PartDraft } from './box-tree.js';
import { segmentMeetsBox, type Box } from './local-parity.js';
import { RegionBoxes } from './region-boxes.js';

/**
 * Per H3 cell at one resolution that some region's boundary may cross (a boundary cell),
 * what it says about the regions, in flat arrays (entry e's slice of a `…Starts` array is
 * `[starts[e], starts[e + 1])`):
 *
 * - candidates: the regions whose boundary may cross the cell;
 * - cell ids: every other region holding the whole cell (its parity cannot change in a
 *   cell none of its edges meets, so one exact test at the cell's centre decides it);
 * - a box tree (`roots[e]`) over the cell's lon/lat bounding box with a margin
 *   (`boxes[4e … 4e + 3]`; NaN when the cell straddles ±180°): each candidate either holds
 *   a whole node's box or is decided in a leaf by `localParity`, from the few edges meeting
 *   the leaf's box. A leaf's answer set includes the cell ids, so a point in the box needs
 *   nothing else.
 *
 * A point outside the box has the cell ids and its candidates tested in full; a point in a
 * cell without an entry, or straddling ±180°, is tested against every region whose
 * bounding box holds it (`RegionBoxes`). Fallback regions are tested every time.
 */
export interface CellTable {
  readonly resolution: number;
  readonly entries: Map<string, number>;
  readonly cellStarts: Uint32Array;
  readonly cellIds: Uint32Array;
  readonly roots: Int32Array;
  readonly boxes: Float64Array;
  readonly candidateStarts: Uint32Array;
  readonly candidateIds: Uint32Array;
  readonly trees: BoxTrees;
  /** Every member polygon of every region, indexed by the trees' parts. */
  readonly polygons: readonly PreparedPolygon[];
  /** Regions the grid cannot hold (see `boundaryCells`), tested on every lookup. */
  readonly fallback: Uint32Array;
  readonly prepared: readonly PreparedGeometry[];
  readonly regionBoxes: RegionBoxes;
}

/** The box is the cell's vertex bounding box widened by this share of its size on every side. */
const BOX_MARGIN = 0.02;

/**
 * Builds the table for prepared regions (region id = index); `intern` gives the answer-set
 * id of an ascending list of region ids.
 */
export function buildCellTable(
  prepared: readonly PreparedGeometry[],
  resolution: number,
  intern: (ids: readonly number[]) => number,
): CellTable {
  const b = new TableBuilder(resolution);
  prepared.forEach((geometry, id) => b.addRegion(id, geometry));
  return b.finish(prepared, intern);
}

interface CellDraft {
  boxIn: number[];
  parts: PartDraft[];
  candidates: number[];
}

class TableBuilder {
  private readonly index = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly cells: CellDraft[] = [];
  /** Boxes of boundary cells, computed on first use (null: not yet). */
  private readonly boxes: (Box | undefined | null)[] = [];
  private readonly polygons: PreparedPolygon[] = [];
  private readonly fallback: number[] = [];

  constructor(private readonly resolution: number) {}

  addRegion(id: number, prepared: PreparedGeometry): void {
    const firstPolygon = this.polygons.length;
    this.polygons.push(...prepared.polygons);
    const boundary = boundaryCells(prepared, this.resolution);
    if (boundary === undefined) {
      this.fallback.push(id);
      return;
    }
    const cells = [...boundary].map((c) => this.cellIndex(c));
    new RegionClassifier(
      id,
      prepared,
      firstPolygon,
      cells.map((c) => this.boxOf(c)),
    ).classify((local, parts, inside) => {
      const draft = this.cells[cells[local]!]!;
      draft.candidates.push(id);
      if (inside) draft.boxIn.push(id);
      else draft.parts.push(...parts);
    });
  }

  private cellIndex(key: string): number {
    let e = this.index.get(key);
    if (e === undefined) {
      e = this.cells.length;
      this.index.set(key, e);
      this.cells.push({ boxIn: [], parts: [], candidates: [] });
      this.keys.push(key);
      this.boxes.push(null);
    }
    return e;
  }

  private boxOf(e: number): Box | undefined {
    let box = this.boxes[e];
    if (box === null) this.boxes[e] = box = cellBox(this.keys[e]!);
    return box;
  }

  finish(prepared: readonly PreparedGeometry[], intern: (ids: readonly number[]) => number): CellTable {
    const n = this.cells.length;
    const cellStarts = new Uint32Array(n + 1),
      candidateStarts = new Uint32Array(n + 1),
      roots = new Int32Array(n).fill(-1);
    const boxes = new Float64Array(4 * n).fill(Number.NaN);
    const cellIds: number[] = [],
      candidateIds: number[] = [];
    const trees = new BoxTreeBuilder(this.polygons, intern);
    const regionBoxes = new RegionBoxes(prepared);
    const fallback = new Set(this.fallback);
    this.cells.forEach((c, e) => {
      const whole = this.wholeCell(e, c.candidates, fallback, regionBoxes);
      cellIds.push(...whole);
      cellStarts[e + 1] = cellIds.length;
      candidateIds.push(...c.candidates);
      candidateStarts[e + 1] = candidateIds.length;
      const box = this.boxes[e];
      if (box === undefined || box === null) return;
      boxes.set([box.x0, box.y0, box.x1, box.y1], 4 * e);
      roots[e] = trees.add(
        box,
        c.parts,
        [...whole, ...c.boxIn].sort((a, b) => a - b),
      );
    });
    return {
      resolution: this.resolution,
      entries: this.index,
      cellStarts,
      cellIds: Uint32Array.from(cellIds),
      roots,
      boxes,
      candidateStarts,
      candidateIds: Uint32Array.from(candidateIds),
      trees: trees.finish(),
      polygons: this.polygons,
      fallback: Uint32Array.from(this.fallback),
      prepared,
      regionBoxes,
    };
  }

  /**
   * The regions other than the candidates (and fallback regions) holding the whole cell:
   * those containing its centre. None for a cell straddling ±180° (no box), which is
   * always tested in full.
   */
  private wholeCell(
    e: number,
    candidates: readonly number[],
    fallback: ReadonlySet<number>,
    regionBoxes: RegionBoxes,
  ): number[] {
    const box = this.boxes[e];
    if (box === undefined || box === null) return [];
    const [lat, lng] = cellToLatLng(this.keys[e]!);
    const found: number[] = [];
    regionBoxes.containing(lng!, lat!, found);
    return found.filter((id) => !fallback.has(id) && !candidates.includes(id));
  }
}

/**
 * The cell's lon/lat box: its vertices' bounding box widened by `BOX_MARGIN` (H3 cell
 * sides are not straight in lon/lat; a point outside the box is tested in full, so the
 * margin is for speed, not correctness). Undefined for a cell straddling ±180°.
 */
function cellBox(cell: string): Box | undefined {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const [lat, lng] of cellToBoundary(cell)) {
    x0 = Math.min(x0, lng!);
    x1 = Math.max(x1, lng!);
    y0 = Math.min(y0, lat!);
    y1 = Math.max(y1, lat!);
  }
  if (x1 - x0 > 180) return undefined;
  const mx = BOX_MARGIN * (x1 - x0),
    my = BOX_MARGIN * (y1 - y0);
  return { x0: x0 - mx, y0: y0 - my, x1: x1 + mx, y1: y1 + my };
}

type Classified = (local: number, parts: PartDraft[], inside: boolean) => void;

/**
 * Sorts one region's boundary cells by what its member polygons do in each cell's box:
 * every polygon whose edges meet the box becomes a part, with its parity at the box's
 * south-east corner; a polygon whose edges miss the box has one parity over all of it, so
 * the region holds the whole box when that parity is odd for any such polygon, and its
 * parts are not needed.
 */
class RegionClassifier {
  private readonly grid: BoxGrid;

  constructor(
    private readonly region: number,
    private readonly prepared: PreparedGeometry,
    private readonly firstPolygon: number,
    private readonly boxes: readonly (Box | undefined)[],
  ) {
    this.grid = new BoxGrid(boxes);
  }

  classify(done: Classified): void {
    const parts: PartDraft[][] = this.boxes.map(() => []);
    const inside = new Uint8Array(this.boxes.length);
    this.prepared.polygons.forEach((polygon, k) => {
      const edges = this.edgesByBox(polygon);
      this.grid.near(polygon.minX, polygon.minY, polygon.maxX, polygon.maxY, (local) => {
        const box = this.boxes[local]!;
        const ref = polygonContains(polygon, box.x1, box.y0);
        const found = edges.get(local);
        if (found !== undefined)
          parts[local]!.push({ region: this.region, polygon: this.firstPolygon + k, ref, edges: found });
        else if (ref) inside[local] = 1;
      });
    });
    this.boxes.forEach((_, local) => done(local, inside[local] === 1 ? [] : parts[local]!, inside[local] === 1));
  }

  /** For each box some edge of the polygon meets, those edges' first vertices, ascending. */
  private edgesByBox(polygon: PreparedPolygon): Map<number, number[]> {
    const { xy, ringEnds } = polygon;
    const out = new Map<number, number[]>();
    let ringStart = 0;
    for (const ringEnd of ringEnds) {
      for (let v = ringStart; v + 1 < ringEnd; v += 1) {
        const ax = xy[2 * v]!,
          ay = xy[2 * v + 1]!,
          bx = xy[2 * v + 2]!,
          by = xy[2 * v + 3]!;
        this.grid.near(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by), (local) => {
          if (!segmentMeetsBox(ax, ay, bx, by, this.boxes[local]!)) return;
          const list = out.get(local);
          if (list === undefined) out.set(local, [v]);
          else list.push(v);
        });
      }
      ringStart = ringEnd;
    }
    return out;
  }
}

/**
 * The regions containing the point, by the H3 cell it falls in: the answer-set id of the
 * regions holding the point's whole tree leaf, with the ids of further regions containing
 * it appended to `out` (in no particular order); or -1 with every id in `out`. Equal to
 * testing every region with `containsPoint` (see `CellTable`).
 */
export function lookupCellTable(t: CellTable, lat: number, lng: number, out: number[]): number {
  const e = t.entries.get(latLngToCell(lat, lng, t.resolution));
  const b = 4 * (e ?? 0);
  if (e === undefined || !(t.boxes[b]! <= t.boxes[b + 2]!)) {
    t.regionBoxes.containing(lng, lat, out);
    return -1;
  }
  return lookupCellEntry(t, e, lat, lng, out);
}

/** `lookupCellTable` for a point known to lie in the cell of entry `e` (one not straddling ±180°). */
export function lookupCellEntry(t: CellTable, e: number, lat: number, lng: number, out: number[]): number {
  const b = 4 * e;
  const x0 = t.boxes[b]!,
    y0 = t.boxes[b + 1]!,
    x1 = t.boxes[b + 2]!,
    y1 = t.boxes[b + 3]!;
  let set = -1;
  if (lng >= x0 && lng <= x1 && lat >= y0 && lat <= y1)
    set = lookupBoxTree(t.trees, t.roots[e]!, x0, y0, x1, y1, lng, lat, out);
  else {
    for (let k = t.cellStarts[e]!; k < t.cellStarts[e + 1]!; k += 1) out.push(t.cellIds[k]!);
    for (let k = t.candidateStarts[e]!; k < t.candidateStarts[e + 1]!; k += 1)
      testRegion(t, t.candidateIds[k]!, lat, lng, out);
  }
  for (const id of t.fallback) testRegion(t, id, lat, lng, out);
  return set;
}

function testRegion(t: CellTable, id: number, lat: number, lng: number, out: number[]): void {
  if (containsPoint(t.prepared[id]!, lng, lat)) out.push(id);
}
