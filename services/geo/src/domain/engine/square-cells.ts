import { cellToBoundary, latLngToCell } from 'h3-js';
import type { CellTable } from './cell-table.js';

/**
 * Which boundary cell's entry answers for a whole answer-grid square, so a lookup there
 * skips `latLngToCell` and the entry map (about a third of a near-boundary lookup).
 *
 * A square is given its cell only when the square, widened by `MARGIN_M` on every side,
 * lies inside the hexagon whose corners `cellToBoundary` gives. The true cell is bounded by
 * great-circle arcs between those corners, which at resolutions 4 and 5 (edges ≈ 23 and
 * 10 km) stray from the straight lon/lat chords by metres, far below the margin: every
 * point of the square is in the cell, so `latLngToCell` would have named that cell for it.
 * Pentagons, cells with more than six corners (crossing an icosahedron face) and cells
 * straddling ±180° are left to the ordinary path; coarser resolutions (longer arcs) and
 * finer ones (cells few squares fit in) are not used at all (`DistrictIndex`).
 */
const MARGIN_M = 100;
const METRES_PER_DEGREE = 111_320;

/** Per boundary cell, its hexagon as edge half-planes (undefined: not usable). */
type Hexagon = { xs: Float64Array; ys: Float64Array; sign: number } | undefined;

export class SquareCells {
  private readonly hexagons = new Map<string, Hexagon>();

  constructor(private readonly table: CellTable) {}

  /** The entry of the cell holding all of `[x0, x1] × [y0, y1]` (lon/lat), or -1. */
  entryHolding(x0: number, y0: number, x1: number, y1: number): number {
    const t = this.table;
    const cy = (y0 + y1) / 2;
    const cell = latLngToCell(cy, (x0 + x1) / 2, t.resolution);
    const e = t.entries.get(cell);
    if (e === undefined || !(t.boxes[4 * e]! <= t.boxes[4 * e + 2]!)) return -1;
    const hex = this.hexagon(cell);
    if (hex === undefined) return -1;
    const my = MARGIN_M / METRES_PER_DEGREE;
    const mx = my / Math.max(Math.cos((cy * Math.PI) / 180), 0.01);
    const inside = (x: number, y: number) => {
      for (let k = 0; k < 6; k += 1) {
        const ax = hex.xs[k]!,
          ay = hex.ys[k]!,
          bx = hex.xs[(k + 1) % 6]!,
          by = hex.ys[(k + 1) % 6]!;
        if (hex.sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) <= 0) return false;
      }
      return true;
    };
    return inside(x0 - mx, y0 - my) && inside(x1 + mx, y0 - my) && inside(x1 + mx, y1 + my) && inside(x0 - mx, y1 + my)
      ? e
      : -1;
  }

  private hexagon(cell: string): Hexagon {
    if (this.hexagons.has(cell)) return this.hexagons.get(cell);
    const ring = cellToBoundary(cell);
    let hex: Hexagon;
    if (ring.length === 6) {
      const xs = Float64Array.from(ring, ([, lng]) => lng);
      const ys = Float64Array.from(ring, ([lat]) => lat);
      let area = 0;
      for (let k = 0; k < 6; k += 1) area += xs[k]! * ys[(k + 1) % 6]! - xs[(k + 1) % 6]! * ys[k]!;
      const span = Math.max(...xs) - Math.min(...xs);
      hex = span < 180 && area !== 0 ? { xs, ys, sign: Math.sign(area) } : undefined;
    }
    this.hexagons.set(cell, hex);
    return hex;
  }
}
