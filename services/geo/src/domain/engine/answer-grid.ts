import type { PreparedGeometry } from '../point-in-polygon.js';

/**
 * An exact answer cache over the whole lon/lat plane: 1° blocks, and inside each block
 * that some edge passes near, squares of 1/`perDegree` degree. A block or square that no
 * edge of any region comes near has one answer at every point of it, found once at build
 * (by the caller's exact lookup at one point) and stored as an answer id; a lookup there
 * costs two array reads and no H3 call. Squares edges pass through say "unknown" (-1).
 *
 * Why a stored answer is exact: the parity of a polygon at a point is the winding parity
 * of the point nudged by an infinitesimal (ε, ε²) (see `crossesEast`), which is the same
 * at both ends of any path that stays off the polygon's edges. Every edge is split into
 * pieces no longer than a square and each piece's bounding box, widened by `MARK_MARGIN`,
 * marks every square it overlaps; an unmarked square is therefore farther than the
 * margin from every edge. Unmarked squares that share a side form components, each
 * joined by paths through its squares, so one answer holds for a whole component. A
 * query point's square is computed with a rounding error (~10⁻¹³°) far below the
 * margin, so the point lies within that error of its square: still off every edge.
 */
export interface AnswerGrid {
  readonly perDegree: number;
  /** Per 1° block (row-major from (-180°, -90°)): ≥ 0 an answer id for the whole block, < 0 refined block -1 - value. */
  readonly blocks: Int32Array;
  /** Refined blocks' squares, `perDegree²` each, row-major: answer id + 1, or 0 where edges pass. */
  readonly squares: Uint16Array | Uint32Array;
  /** Refined blocks' squares alike: for a square edges pass through, 1 + the cell-table entry that answers for all of it, else 0. */
  readonly cells: Int32Array;
  readonly refinedBlocks: number;
}

/** Edge pieces' boxes are widened by this many degrees (≈ 0.1 mm) when marking squares. */
const MARK_MARGIN = 1e-9;
const BLOCKS_X = 360;
const BLOCKS_Y = 180;

/**
 * Builds the grid for `geometries` (every region, grid-safe or not). `answerAt(lat, lng)`
 * must give the exact answer's id at a point; it is called once per block or component.
 * `perDegree` must be a power of two.
 */
export function buildAnswerGrid(
  geometries: readonly PreparedGeometry[],
  perDegree: number,
  answerAt: (lat: number, lng: number) => number,
  entryHolding: (x0: number, y0: number, x1: number, y1: number) => number = () => -1,
): AnswerGrid {
  if (!Number.isInteger(Math.log2(perDegree)))
    throw new RangeError(`squares per degree must be a power of two, got ${perDegree}`);
  const marks = markEdges(geometries, perDegree);
  const covered = coveredBlocks(geometries);
  const blocks = new Int32Array(BLOCKS_X * BLOCKS_Y);
  const refined: Uint32Array[] = [];
  const cells: Int32Array[] = [];
  let nowhere: number | undefined; // the answer id of a point outside every region's bounding box
  for (let b = 0; b < blocks.length; b += 1) {
    const bx = b % BLOCKS_X,
      by = Math.floor(b / BLOCKS_X);
    const marked = marks[b];
    if (marked === undefined && covered[b] === 0) blocks[b] = nowhere ??= answerAt(by - 90 + 0.5, bx - 180 + 0.5);
    else if (marked === undefined) blocks[b] = answerAt(by - 90 + 0.5, bx - 180 + 0.5);
    else {
      blocks[b] = -1 - refined.length;
      refined.push(labelComponents(marked, perDegree, bx - 180, by - 90, answerAt));
      cells.push(squareEntries(marked, perDegree, bx - 180, by - 90, entryHolding));
    }
  }
  const all = new Int32Array(cells.length * perDegree * perDegree);
  cells.forEach((c, k) => all.set(c, k * perDegree * perDegree));
  return { perDegree, blocks, squares: concat(refined, perDegree), cells: all, refinedBlocks: refined.length };
}

/** For each marked square of a block, 1 + the entry answering for all of it, else 0. */
function squareEntries(
  marked: Uint8Array,
  n: number,
  west: number,
  south: number,
  entryHolding: (x0: number, y0: number, x1: number, y1: number) => number,
): Int32Array {
  const out = new Int32Array(n * n);
  for (let s = 0; s < n * n; s += 1) {
    if (marked[s] !== 1) continue;
    const x0 = west + (s % n) / n,
      y0 = south + Math.floor(s / n) / n;
    out[s] = 1 + entryHolding(x0, y0, x0 + 1 / n, y0 + 1 / n);
  }
  return out;
}

/**
 * The answer id at a point (≥ 0); or, when an edge passes through its square, -2 - the
 * cell-table entry that answers for the whole square, or -1 when no single entry does.
 */
export function lookupAnswerGrid(g: AnswerGrid, lat: number, lng: number): number {
  const n = g.perDegree;
  let i = Math.floor((lng + 180) * n);
  let j = Math.floor((lat + 90) * n);
  if (i >= BLOCKS_X * n) i = BLOCKS_X * n - 1;
  if (j >= BLOCKS_Y * n) j = BLOCKS_Y * n - 1;
  const bi = Math.floor(i / n),
    bj = Math.floor(j / n);
  const v = g.blocks[bj * BLOCKS_X + bi]!;
  if (v >= 0) return v;
  const s = (-1 - v) * n * n + (j - bj * n) * n + (i - bi * n);
  const answer = g.squares[s]! - 1;
  return answer >= 0 ? answer : -1 - g.cells[s]!;
}

/** Per block, the squares some edge piece comes near (undefined: none does). */
function markEdges(geometries: readonly PreparedGeometry[], n: number): (Uint8Array | undefined)[] {
  const marks: (Uint8Array | undefined)[] = new Array(BLOCKS_X * BLOCKS_Y);
  const mark = (x0: number, y0: number, x1: number, y1: number) => {
    const [i0, i1] = squareRange(x0, x1, 180, BLOCKS_X * n, n);
    const [j0, j1] = squareRange(y0, y1, 90, BLOCKS_Y * n, n);
    for (let j = j0; j <= j1; j += 1) {
      for (let i = i0; i <= i1; i += 1) {
        const b = Math.floor(j / n) * BLOCKS_X + Math.floor(i / n);
        const block = (marks[b] ??= new Uint8Array(n * n));
        block[(j % n) * n + (i % n)] = 1;
      }
    }
  };
  for (const g of geometries) for (const p of g.polygons) forEachEdgePiece(p.xy, p.ringEnds, 1 / n, mark);
  return marks;
}

/**
 * Per block, 1 when some geometry's bounding box overlaps it. A block no box overlaps has
 * the same answer as any point outside every box (no region), found once.
 */
function coveredBlocks(geometries: readonly PreparedGeometry[]): Uint8Array {
  const covered = new Uint8Array(BLOCKS_X * BLOCKS_Y);
  for (const g of geometries) {
    if (!(g.minX <= g.maxX)) continue;
    const [i0, i1] = squareRange(g.minX, g.maxX, 180, BLOCKS_X, 1);
    const [j0, j1] = squareRange(g.minY, g.maxY, 90, BLOCKS_Y, 1);
    for (let j = j0; j <= j1; j += 1) covered.fill(1, j * BLOCKS_X + i0, j * BLOCKS_X + i1 + 1);
  }
  return covered;
}

/** Squares overlapping [lo − margin, hi + margin] on one axis, clamped to the plane. */
function squareRange(lo: number, hi: number, offset: number, count: number, n: number): [number, number] {
  const a = Math.floor((lo - MARK_MARGIN + offset) * n);
  const b = Math.floor((hi + MARK_MARGIN + offset) * n);
  return [Math.min(Math.max(a, 0), count - 1), Math.min(Math.max(b, 0), count - 1)];
}

/**
 * Calls `fn` with the bounding box of each piece of each edge, pieces at most `step` long
 * on each axis. Consecutive pieces share their computed endpoint, and each true piece lies
 * within rounding error (far below `MARK_MARGIN`) of its computed box.
 */
function forEachEdgePiece(
  xy: Float64Array,
  ringEnds: Uint32Array,
  step: number,
  fn: (x0: number, y0: number, x1: number, y1: number) => void,
): void {
  let ringStart = 0;
  for (const ringEnd of ringEnds) {
    for (let v = ringStart; v + 1 < ringEnd; v += 1) {
      const ax = xy[2 * v]!,
        ay = xy[2 * v + 1]!,
        bx = xy[2 * v + 2]!,
        by = xy[2 * v + 3]!;
      const pieces = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay)) / step));
      let px = ax,
        py = ay;
      for (let k = 1; k <= pieces; k += 1) {
        const qx = k === pieces ? bx : ax + ((bx - ax) * k) / pieces;
        const qy = k === pieces ? by : ay + ((by - ay) * k) / pieces;
        fn(Math.min(px, qx), Math.min(py, qy), Math.max(px, qx), Math.max(py, qy));
        [px, py] = [qx, qy];
      }
    }
    ringStart = ringEnd;
  }
}

/** Answer id + 1 for every unmarked square (one `answerAt` per component), 0 for marked ones. */
function labelComponents(
  marked: Uint8Array,
  n: number,
  west: number,
  south: number,
  answerAt: (lat: number, lng: number) => number,
): Uint32Array {
  const out = new Uint32Array(n * n);
  const stack = new Int32Array(n * n);
  for (let s = 0; s < n * n; s += 1) {
    if (marked[s] === 1 || out[s] !== 0) continue;
    const label = 1 + answerAt(south + (Math.floor(s / n) + 0.5) / n, west + ((s % n) + 0.5) / n);
    let top = 0;
    const push = (r: number) => {
      if (marked[r] === 1 || out[r] !== 0) return;
      out[r] = label;
      stack[top++] = r;
    };
    push(s);
    while (top > 0) {
      const q = stack[--top]!;
      const qi = q % n;
      if (qi > 0) push(q - 1);
      if (qi + 1 < n) push(q + 1);
      if (q >= n) push(q - n);
      if (q + n < n * n) push(q + n);
    }
  }
  return out;
}

/** All refined blocks in one array, 16-bit when every label fits. */
function concat(refined: readonly Uint32Array[], n: number): Uint16Array | Uint32Array {
  const max = refined.reduce((m, r) => r.reduce((a, v) => (v > a ? v : a), m), 0);
  const out = max < 0xffff ? new Uint16Array(refined.length * n * n) : new Uint32Array(refined.length * n * n);
  refined.forEach((r, k) => out.set(r, k * n * n));
  return out;
}
