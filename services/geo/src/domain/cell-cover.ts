import { cellToBoundary, cellToLatLng, getHexagonEdgeLengthAvg, gridDisk } from 'h3-js';
import { EARTH_RADIUS_KM, sampledEdgeCells } from './edge-cells.js';
import { containsPoint, polygonsOf, type PreparedGeometry } from './point-in-polygon.js';
import type { Position, RegionGeometry } from './region.js';

/**
 * How one region sits on the H3 grid at one resolution.
 * - `boundary`: cells (at the resolution) that some edge of the region may pass through;
 *   a point in one of them needs the exact test.
 * - `interior`: cells (at the index resolution) wholly inside the region; a point in one is inside.
 */
export interface RegionCover {
  readonly interior: string[];
  /** How many resolution-level cells `interior` stands for before compaction. */
  readonly interiorCount: number;
  readonly boundary: Set<string>;
}

const RAD = Math.PI / 180;
/** Rings wider than this (degrees of longitude) are not put on the grid; see `coverRegion`. */
const MAX_RING_SPAN = 170;

/**
 * The region's cover, or undefined when a ring leaves the lon/lat range (h3 would wrap
 * such positions, the planar exact test does not) or spans more than 170° of longitude
 * (almost always a ring drawn across the antimeridian, which the planar test reads as
 * going the long way round, over most of the globe's cells). Such regions are tested
 * exactly on every lookup instead, so correctness never rests on a grid reading of them.
 *
 * Interior cells are the cells that no edge touches, that do not straddle the
 * antimeridian, and whose centre passes the exact test: within such a cell the even–odd
 * parity cannot change, so the whole cell is inside. They are found by flooding: the
 * cells just outside the boundary cells are tested exactly, and from each one inside, its
 * whole connected run of untouched cells is taken without further tests (adjacent
 * untouched cells share a side no edge crosses, so they have the same parity).
 */
export function coverRegion(geometry: RegionGeometry, prepared: PreparedGeometry, res: number): RegionCover | undefined {
  const rings = polygonsOf(geometry).flat().filter((ring) => ring.length > 0);
  if (!rings.every(isGridSafe)) return undefined;
  const sampled = sampledEdgeCells(rings, res);
  const boundary = new Set<string>();
  for (const cell of sampled) for (const near of gridDisk(cell, 1)) boundary.add(near);
  const interior = floodInterior(sampled, boundary, prepared, res);
  return { interior, interiorCount: interior.length, boundary };
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
 * Every untouched cell next to the boundary lies within two steps of a sampled cell, so
 * the sampled cells' two-step disks reach every inside run of cells.
 */
function floodInterior(sampled: Set<string>, boundary: Set<string>, prepared: PreparedGeometry, res: number): string[] {
  const flood = new Flood(boundary, prepared, res);
  for (const cell of sampled) for (const seed of gridDisk(cell, 2)) flood.trySeed(seed);
  return flood.interior;
}

class Flood {
  readonly interior: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly boundary: Set<string>,
    private readonly prepared: PreparedGeometry,
    private readonly res: number,
  ) {}

  trySeed(cell: string): void {
    if (this.boundary.has(cell) || this.seen.has(cell)) return;
    this.seen.add(cell);
    const [lat, lng] = cellToLatLng(cell);
    if (this.wraps(cell, lat, lng)) this.boundary.add(cell);
    else if (containsPoint(this.prepared, lng, lat)) this.fill(cell, lng);
  }

  private fill(seed: string, seedLng: number): void {
    const stack: [string, number][] = [[seed, seedLng]];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const [cell, cellLng] = next;
      this.interior.push(cell);
      for (const near of gridDisk(cell, 1)) {
        if (this.boundary.has(near) || this.seen.has(near)) continue;
        const [lat, lng] = cellToLatLng(near);
        if (Math.abs(lng - cellLng) > 180) continue; // a step across ±180° is no step in the plane
        this.seen.add(near);
        if (this.wraps(near, lat, lng)) this.boundary.add(near);
        else stack.push([near, lng]);
      }
    }
  }

  private wraps(cell: string, lat: number, lng: number): boolean {
    return mayWrap(lat, lng, this.res) && wrapsAntimeridian(cell);
  }
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
 * lon/lat plane, so "no edge touches it" no longer implies "all of it is on one side";
 * such cells are treated as boundary cells.
 */
function wrapsAntimeridian(cell: string): boolean {
  const lngs = cellToBoundary(cell).map(([, lng]) => lng!);
  return Math.max(...lngs) - Math.min(...lngs) > 180;
}
