import { orient } from '../orient.js';

/**
 * The two exact, half-open ray-crossing predicates every point test in the geo domain is
 * built from. Both read a point (x, y) as if it were nudged by δ = (ε, ε²) for an
 * infinitesimal ε > 0 — a step east, then a far smaller step north — which puts the
 * nudged point off every edge and every ray through a vertex, so crossings are never
 * ambiguous:
 *
 * - `crossesEast`: the ray going east from the nudged point crosses the edge. This is the
 *   brute-force test of `containsPoint`: an edge counts when `yLow <= y < yHigh` and the
 *   point lies strictly west of it.
 * - `crossesNorth`: the ray going north from the nudged point crosses the edge: an edge
 *   counts when `xLow <= x < xHigh` and the point lies strictly below it, or exactly on
 *   it when the edge rises eastward (the ε term of the nudge then puts the point below).
 *
 * For any closed rings, the parity of either count is the parity of the winding number of
 * the nudged point, so the two counts always have the same parity (the local test in
 * `local-parity.ts` rests on that).
 */
export function crossesEast(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  if (ay > y === by > y) return false;
  if (x < ax && x < bx) return true;
  if (x >= ax && x >= bx) return false;
  return ay < by ? orient(ax, ay, bx, by, x, y) > 0 : orient(bx, by, ax, ay, x, y) > 0;
}

/** See `crossesEast`: the same nudged point, a ray going north. */
export function crossesNorth(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  if (ax > x === bx > x) return false;
  if (y < ay && y < by) return true;
  if (y > ay && y > by) return false;
  const o = ax < bx ? orient(ax, ay, bx, by, x, y) : orient(bx, by, ax, ay, x, y);
  return o < 0 || (o === 0 && (ax < bx ? by > ay : ay > by));
}
