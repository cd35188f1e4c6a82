import { getHexagonEdgeLengthAvg, latLngToCell } from 'h3-js';
import type { PreparedPolygon } from './point-in-polygon.js';

/** Mean Earth radius (km), a hair above h3's, so distance bounds stay conservative. */
export const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;
const RAD = Math.PI / 180;

/**
 * Cells holding samples taken along every ring, walked as a path, every quarter of a mean
 * cell edge of (bounded) true distance — the east–west step shrunk by cos(lat). Every
 * point of every edge then lies within an eighth of a cell edge of a sample, so the
 * samples' cells padded by one ring of neighbours contain every edge point (any cell
 * beyond that ring is at least a whole cell edge away). Sampling by distance, not per
 * vertex, keeps detailed rings cheap.
 */
export function sampledEdgeCells(polygons: readonly PreparedPolygon[], res: number): Set<string> {
  const spacingKm = getHexagonEdgeLengthAvg(res, 'km') / 4;
  const sampled = new Set<string>();
  for (const { xy, ringEnds } of polygons) {
    let start = 0;
    for (const end of ringEnds) {
      sampleRing(xy, start, end, res, spacingKm, sampled);
      start = end;
    }
  }
  return sampled;
}

/** Samples one closed ring, vertices `start … end - 1` of `xy` (the last repeats the first). */
function sampleRing(
  xy: Float64Array,
  start: number,
  end: number,
  res: number,
  spacingKm: number,
  out: Set<string>,
): void {
  out.add(latLngToCell(xy[2 * start + 1]!, xy[2 * start]!, res));
  let sinceSample = 0; // bounded path distance walked since the last sample
  for (let v = start; v + 1 < end; v += 1) {
    const ax = xy[2 * v]!,
      ay = xy[2 * v + 1]!,
      bx = xy[2 * v + 2]!,
      by = xy[2 * v + 3]!;
    const length = pathLengthBoundKm(ax, ay, bx, by);
    let at = spacingKm - sinceSample; // distance along this edge of the next sample
    for (; at <= length; at += spacingKm) {
      const t = at / length;
      out.add(latLngToCell(ay + t * (by - ay), ax + t * (bx - ax), res));
    }
    sinceSample = length - (at - spacingKm);
  }
}

/**
 * An upper bound on the length over the sphere of the straight lon/lat segment a→b: the
 * local east–west scale cos(lat) is largest at the latitude nearest the equator.
 */
function pathLengthBoundKm(ax: number, ay: number, bx: number, by: number): number {
  const nearestEquator = ay * by <= 0 ? 0 : Math.min(Math.abs(ay), Math.abs(by));
  const cosMax = Math.cos(nearestEquator * RAD);
  return KM_PER_DEGREE * Math.hypot((bx - ax) * cosMax, by - ay);
}
