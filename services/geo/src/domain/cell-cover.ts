import { gridDisk } from 'h3-js';
import { sampledEdgeCells } from './edge-cells.js';
import type { PreparedGeometry, PreparedPolygon } from './point-in-polygon.js';

/** Rings wider than this (degrees of longitude) are not put on the grid; see `boundaryCells`. */
const MAX_RING_SPAN = 170;

/**
 * The H3 cells (at resolution `res`) that some edge of the region may pass through: the
 * cells of samples taken along every ring, padded by one ring of neighbours (see
 * `sampledEdgeCells`). A cell outside the set meets no edge of the region, so the region's
 * parity is the same at every point of it — the whole cell is inside or outside — unless
 * the cell straddles ±180°, where it falls apart in the lon/lat plane.
 *
 * Undefined when a ring leaves the lon/lat range (h3 would wrap such positions, the
 * planar exact test does not) or spans more than 170° of longitude (almost always a ring
 * drawn across the antimeridian, which the planar test reads as going the long way
 * round, over most of the globe's cells). Such regions are tested exactly on every
 * lookup instead, so correctness never rests on a grid reading of them.
 */
export function boundaryCells(prepared: PreparedGeometry, res: number): Set<string> | undefined {
  if (!prepared.polygons.every(isGridSafe)) return undefined;
  const boundary = new Set<string>();
  for (const cell of sampledEdgeCells(prepared.polygons, res)) for (const near of gridDisk(cell, 1)) boundary.add(near);
  return boundary;
}

/** Whether every ring of the polygon stays in the lon/lat range and spans at most `MAX_RING_SPAN`. */
function isGridSafe({ xy, ringEnds }: PreparedPolygon): boolean {
  let start = 0;
  for (const end of ringEnds) {
    let min = Infinity,
      max = -Infinity;
    for (let v = start; v < end; v += 1) {
      const x = xy[2 * v]!,
        y = xy[2 * v + 1]!;
      if (!(x >= -180 && x <= 180 && y >= -90 && y <= 90)) return false;
      if (x < min) min = x;
      if (x > max) max = x;
    }
    if (max - min > MAX_RING_SPAN) return false;
    start = end;
  }
  return true;
}
