import { cellToBoundary, cellToLatLng, compactCells, getHexagonEdgeLengthAvg, gridDisk, latLngToCell, polygonToCells } from 'h3-js';
import { containsPoint, polygonsOf, type PreparedGeometry } from './point-in-polygon.js';
import type { Position, RegionGeometry } from './region.js';

/**
 * How one region sits on the H3 grid at one resolution.
 * - `boundary`: cells (at the resolution) that some edge of the region may pass through;
 *   a point in one of them needs the exact test.
 * - `interior`: compacted cells wholly inside the region; a point in one is inside.
 */
export interface RegionCover {
  readonly interior: string[];
  /** How many resolution-level cells `interior` stands for before compaction. */
  readonly interiorCount: number;
  readonly boundary: Set<string>;
}

/** Mean Earth radius (km), a hair above h3's, so distance bounds stay conservative. */
const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;
const RAD = Math.PI / 180;
/**
 * Rings wider than this (degrees of longitude) are not handed to h3: h3 reads a loop with
 * a step over 180° as crossing the antimeridian, while the exact test is planar.
 */
const MAX_RING_SPAN = 170;

/**
 * The region's cover, or undefined when a ring leaves the lon/lat range, spans more than
 * 170° of longitude (e.g. a ring drawn across the antimeridian) or cannot be filled by h3. Such regions are tested
 * exactly on every lookup instead, so correctness never rests on h3's reading of them.
 */
export function coverRegion(geometry: RegionGeometry, prepared: PreparedGeometry, res: number): RegionCover | undefined {
  const rings = polygonsOf(geometry).flat();
  if (!rings.every(isGridSafe)) return undefined;
  const candidates = candidateCells(rings, res);
  if (candidates === undefined) return undefined;
  const boundary = boundaryCells(rings, res);
  const interior: string[] = [];
  for (const cell of candidates) {
    if (boundary.has(cell)) continue;
    const [lat, lng] = cellToLatLng(cell);
    if (mayWrap(lat, lng, res) && wrapsAntimeridian(cell)) boundary.add(cell);
    else if (containsPoint(prepared, lng, lat)) interior.push(cell);
  }
  return { interior: compactCells(interior), interiorCount: interior.length, boundary };
}

function isGridSafe(ring: readonly Position[]): boolean {
  let min = Infinity, max = -Infinity;
  for (const [x, y] of ring) {
    if (!(x! >= -180 && x! <= 180 && y! >= -90 && y! <= 90)) return false;
    if (x! < min) min = x!;
    if (x! > max) max = x!;
  }
  return max - min <= MAX_RING_SPAN;
}

/**
 * Every cell an edge passes through, padded by one ring of neighbours: a conservative
 * superset. Edges are sampled every quarter of a mean cell edge (true distance, the
 * east–west step shrunk by cos(lat)), so every point of an edge lies within an eighth of a
 * cell edge of a sample; the sample's cell plus its neighbours contain every point that
 * close, since any cell beyond them is at least a whole cell edge away.
 */
function boundaryCells(rings: readonly (readonly Position[])[], res: number): Set<string> {
  const spacingKm = getHexagonEdgeLengthAvg(res, 'km') / 4;
  const sampled = new Set<string>();
  for (const ring of rings) sampleRing(ring, res, spacingKm, sampled);
  const padded = new Set<string>();
  for (const cell of sampled) for (const near of gridDisk(cell, 1)) padded.add(near);
  return padded;
}

function sampleRing(ring: readonly Position[], res: number, spacingKm: number, out: Set<string>): void {
  let last = '';
  for (let i = 0; i < ring.length; i += 1) {
    const [ax, ay] = ring[i]! as [number, number];
    const [bx, by] = ring[(i + 1) % ring.length]! as [number, number];
    const steps = Math.max(1, Math.ceil(pathLengthBoundKm(ax, ay, bx, by) / spacingKm));
    for (let k = 0; k < steps; k += 1) {
      const t = k / steps;
      const cell = latLngToCell(ay + t * (by - ay), ax + t * (bx - ax), res);
      if (cell !== last) out.add(cell);
      last = cell;
    }
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

/**
 * Cells whose centres h3 places inside any single ring. The union over outer rings and
 * holes alike is a superset of the even–odd interior, so a malformed hole cannot hide a
 * cell; the exact centre test then decides. Undefined when h3 cannot fill some ring.
 */
function candidateCells(rings: readonly (readonly Position[])[], res: number): Set<string> | undefined {
  const cells = new Set<string>();
  for (const ring of rings) {
    const filled = ringCells(ring, res);
    if (filled === undefined) return undefined;
    for (const cell of filled) cells.add(cell);
  }
  return cells;
}

/**
 * h3 refuses degenerate rings (zero area, e.g. a sliver collapsed by quantisation). Such a
 * ring's bounding box still holds every point it could contain, so its cells stand in;
 * a box of zero width or height encloses no interior at all.
 */
function ringCells(ring: readonly Position[], res: number): string[] | undefined {
  const fill = (loop: readonly Position[]): string[] | undefined => {
    try {
      return polygonToCells([loop as number[][]], res, true);
    } catch {
      return undefined;
    }
  };
  const direct = fill(ring);
  if (direct !== undefined) return direct;
  const xs = ring.map((p) => p[0]!), ys = ring.map((p) => p[1]!);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (x0 === x1 || y0 === y1) return [];
  return fill([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]);
}

/**
 * Cheap pre-check for `wrapsAntimeridian`: only cells whose centre is within three mean
 * edge lengths of the ±180° meridian (or of a pole) can straddle it.
 */
function mayWrap(lat: number, lng: number, res: number): boolean {
  const dLng = (180 - Math.abs(lng)) * RAD;
  const phi = lat * RAD;
  const angle = dLng < Math.PI / 2 ? Math.asin(Math.sin(dLng) * Math.cos(phi)) : Math.PI / 2 - Math.abs(phi);
  return angle * EARTH_RADIUS_KM < 3 * getHexagonEdgeLengthAvg(res, 'km');
}

/**
 * A cell straddling the antimeridian (or holding a pole) falls apart into pieces in the
 * lon/lat plane, so "no edge crosses it" no longer implies "all of it is on one side";
 * such cells are treated as boundary cells.
 */
function wrapsAntimeridian(cell: string): boolean {
  const lngs = cellToBoundary(cell).map(([, lng]) => lng!);
  return Math.max(...lngs) - Math.min(...lngs) > 180;
}
