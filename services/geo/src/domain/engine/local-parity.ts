import { orient } from '../orient.js';

/**
 * A closed lon/lat box `[x0, x1] × [y0, y1]`; its south-east corner (x1, y0) is the
 * reference point of the local test.
 */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/**
 * The parity of one polygon (its even–odd crossing count, as `polygonContains` computes
 * it) at a point (x, y) of a box, from the parity `ref` at the box's south-east corner R0 =
 * (x1, y0) and a subset of the polygon's edges that includes every edge meeting the box:
 * polylines in `data[start … end - 1]`, each its vertex count n then n vertices `x, y`.
 *
 * Why it equals the brute force, at every point of the box, edges and vertices included:
 * with E(e, Q) = `crossesEast` and N(e, Q) = `crossesNorth`, the brute force is the parity
 * of Σₑ E(e, P) over all the polygon's edges. Let R1 = (x1, y) be the point due east of P
 * on the box's east side. Then, mod 2:
 *   Σ E(e, P) = Σ E(e, R1) + Σ [E(e, P) ≠ E(e, R1)]           (term by term)
 *   Σ E(e, R1) = Σ N(e, R1)     (both: the winding parity of the same nudged point)
 *   Σ N(e, R1) = Σ N(e, R0) + Σ [N(e, R1) ≠ N(e, R0)]          (term by term)
 *   Σ N(e, R0) = Σ E(e, R0) = ref.
 * E(e, P) ≠ E(e, R1) only when e meets the segment P–R1, and N(e, R1) ≠ N(e, R0) only when
 * e meets the segment R0–R1; both segments lie in the box, so every edge that can
 * contribute is listed, and any further edge of the polygon listed contributes nothing.
 * The caller must ensure the point is in the box.
 */
export function localParity(
  data: Float64Array,
  start: number,
  end: number,
  x1: number,
  y0: number,
  ref: boolean,
  x: number,
  y: number,
): boolean {
  let odd = ref;
  for (let i = start; i < end;) {
    const stop = (i + 1 + 2 * data[i]!) | 0;
    let ax = data[i + 1]!,
      ay = data[i + 2]!;
    for (let k = i + 3; k < stop; k += 2) {
      const bx = data[k]!,
        by = data[k + 1]!;
      if (ay > y !== by > y && eastFlips(ax, ay, bx, by, x, x1, y)) odd = !odd;
      if (ax > x1 !== bx > x1 && northFlips(ax, ay, bx, by, x1, y0, y)) odd = !odd;
      ax = bx;
      ay = by;
    }
    i = stop;
  }
  return odd;
}

/**
 * `crossesEast(e, (x, y)) !== crossesEast(e, (x1, y))` for an edge spanning y (half-open)
 * and x ≤ x1, unrolled: both points west of the edge's x-range, or both at or east of it,
 * cross alike, and only a point within the range needs the orientation test.
 */
function eastFlips(ax: number, ay: number, bx: number, by: number, x: number, x1: number, y: number): boolean {
  const lo = ax < bx ? ax : bx,
    hi = ax < bx ? bx : ax;
  if (x >= hi || x1 < lo) return false;
  const west = x < lo || (ay < by ? orient(ax, ay, bx, by, x, y) > 0 : orient(bx, by, ax, ay, x, y) > 0);
  const eastWest = x1 < hi && (ay < by ? orient(ax, ay, bx, by, x1, y) > 0 : orient(bx, by, ax, ay, x1, y) > 0);
  return west !== eastWest;
}

/**
 * `crossesNorth(e, (x1, y0)) !== crossesNorth(e, (x1, y))` for an edge spanning x1
 * (half-open) and y0 ≤ y, unrolled the same way along y.
 */
function northFlips(ax: number, ay: number, bx: number, by: number, x1: number, y0: number, y: number): boolean {
  const lo = ay < by ? ay : by,
    hi = ay < by ? by : ay;
  if (y0 > hi || y < lo) return false;
  const below0 = y0 < lo || below(ax, ay, bx, by, x1, y0);
  const below1 = y <= hi && (y < lo || below(ax, ay, bx, by, x1, y));
  return below0 !== below1;
}

/** The orientation part of `crossesNorth`, for a point within the edge's ranges. */
function below(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  const o = ax < bx ? orient(ax, ay, bx, by, x, y) : orient(bx, by, ax, ay, x, y);
  return o < 0 || (o === 0 && (ax < bx ? by > ay : ay > by));
}

/** Whether the closed segment a–b meets the closed box: bounding boxes overlap and the segment's line does not separate the corners. */
export function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, box: Box): boolean {
  const { x0, y0, x1, y1 } = box;
  if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) return false;
  if (ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1) return true;
  const s = orient(ax, ay, bx, by, x0, y0);
  if (s === 0) return true;
  return (
    orient(ax, ay, bx, by, x1, y0) !== s || orient(ax, ay, bx, by, x1, y1) !== s || orient(ax, ay, bx, by, x0, y1) !== s
  );
}
