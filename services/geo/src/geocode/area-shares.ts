import { cellToLatLng, getHexagonAreaAvg, getHexagonEdgeLengthAvg, gridDiskDistances, latLngToCell } from 'h3-js';
import { distanceMeters } from './centroid-grid.js';
import type { GeoPoint } from './geocoder.js';

/** A region that intersects an uncertainty disc, with its estimated share of the disc. */
export interface AreaShare<R> {
  region: R;
  /** Fraction of the disc's area inside the region, 0..1 (an estimate, see `areaShares`). */
  share: number;
}

/** Finds the regions containing a point, e.g. `DistrictIndex.lookup`. */
export type RegionLookup<R> = (lat: number, lng: number) => readonly R[];

/** The fewest sample cells a disc is covered with (the default of `areaShares`). */
export const MIN_SAMPLE_CELLS = 200;
const MAX_RES = 15;

/**
 * Every region intersecting the disc of `radiusMeters` around `centre`, with its share of
 * the disc's area, largest first (ties by slug).
 *
 * The shares are an estimate by sampling: the disc is covered with the H3 cells whose
 * centres lie inside it, at the coarsest resolution giving at least `minCells` cells, and a
 * region's share is the fraction of cell centres it contains. A region thinner than a cell
 * may be missed, and shares are good to roughly 1/√cells. The region(s) at the centre itself
 * are always included, with share 0 if no cell centre fell inside them.
 */
export function areaShares<R extends { slug: string }>(
  centre: GeoPoint,
  radiusMeters: number,
  lookup: RegionLookup<R>,
  minCells: number = MIN_SAMPLE_CELLS,
): AreaShare<R>[] {
  const cells = discCells(centre, radiusMeters, minCells);
  const counts = new Map<string, { region: R; hits: number }>();
  for (const cell of cells) {
    const [lat, lng] = cellToLatLng(cell);
    for (const region of distinct(lookup(lat, lng))) tally(counts, region, 1);
  }
  for (const region of distinct(lookup(centre.lat, centre.lng))) tally(counts, region, 0);
  return [...counts.values()]
    .map(({ region, hits }) => ({ region, share: hits / cells.length }))
    .sort((a, b) => b.share - a.share || compareSlugs(a.region.slug, b.region.slug));
}

/**
 * The H3 cells whose centres lie within the disc, at the coarsest resolution holding at
 * least `minCells` of them (or resolution 15, or just the centre's cell for a tiny disc).
 */
export function discCells(centre: GeoPoint, radiusMeters: number, minCells: number = MIN_SAMPLE_CELLS): string[] {
  if (!(radiusMeters > 0) || !Number.isFinite(radiusMeters))
    throw new RangeError(`radiusMeters must be a positive number, got ${radiusMeters}`);
  const discArea = Math.PI * radiusMeters ** 2;
  let res = 0;
  while (res < MAX_RES && discArea / getHexagonAreaAvg(res, 'm2') < minCells) res += 1;
  for (; ; res += 1) {
    const cells = cellsWithin(centre, radiusMeters, res);
    if (cells.length >= minCells || res === MAX_RES)
      return cells.length > 0 ? cells : [latLngToCell(centre.lat, centre.lng, res)];
  }
}

/** Grows a grid disk from the centre's cell until its outer ring lies wholly outside. */
function cellsWithin(centre: GeoPoint, radiusMeters: number, res: number): string[] {
  const origin = latLngToCell(centre.lat, centre.lng, res);
  const spacing = Math.sqrt(3) * getHexagonEdgeLengthAvg(res, 'm'); // between neighbouring centres
  for (let k = Math.ceil(radiusMeters / spacing) + 1; ; k = 2 * k) {
    const rings = gridDiskDistances(origin, k);
    const inside = rings.map((ring) => ring.filter((cell) => isWithin(cell, centre, radiusMeters)));
    if ((inside[inside.length - 1] ?? []).length === 0) return inside.flat();
  }
}

function isWithin(cell: string, centre: GeoPoint, radiusMeters: number): boolean {
  const [lat, lng] = cellToLatLng(cell);
  return distanceMeters(centre, { lat, lng }) <= radiusMeters;
}

function distinct<R extends { slug: string }>(regions: readonly R[]): R[] {
  const seen = new Set<string>();
  return regions.filter((r) => !seen.has(r.slug) && (seen.add(r.slug), true));
}

function tally<R extends { slug: string }>(
  counts: Map<string, { region: R; hits: number }>,
  region: R,
  hits: number,
): void {
  const entry = counts.get(region.slug);
  if (entry === undefined) counts.set(region.slug, { region, hits });
  else entry.hits += hits;
}

function compareSlugs(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
