import zipcodes from 'zipcodes';
import { CentroidGrid, distanceMeters } from './centroid-grid.js';
import type { GeoPoint } from './geocoder.js';

/** One US ZIP code: its centroid (undefined for military and unplaced ZIPs), city and state. */
export interface ZipRow {
  zip: string;
  point: GeoPoint | undefined;
  city: string;
  /** Two-letter USPS code, upper case. */
  state: string;
}

/** A centre and the radius of the disc the place is taken to cover. */
export interface PlaceArea {
  point: GeoPoint;
  radiusMeters: number;
}

/** Bounds of a ZIP's radius (metres). */
export const ZIP_RADIUS_MIN = 1_000;
export const ZIP_RADIUS_MAX = 15_000;
/** The smallest radius given to a city (metres). */
export const CITY_RADIUS_MIN = 2_000;
/** How far from the median of its city's centroids a ZIP may lie before it is ignored (metres). */
export const CITY_OUTLIER_METERS = 100_000;

/**
 * US ZIP centroids with the lookups the embedded geocoder needs, all built once in the
 * constructor. The radius rules (estimates: the registry holds centroids, not areas):
 *
 * - ZIP: half the distance to the nearest other ZIP centroid, clamped to
 *   [ZIP_RADIUS_MIN, ZIP_RADIUS_MAX]. Half the spacing is the inner radius of the ZIP's
 *   Voronoi cell among its neighbours, so it tracks density: about 1 km downtown, up to 15 km
 *   in the country. Centroids at the very same position (PO-box ZIPs placed at a city's
 *   centre) are not neighbours. Large rural ZIPs extend beyond 15 km; the cap keeps the
 *   estimate from covering whole counties.
 * - City: the centre is the mean of its ZIP centroids; the radius is the smallest that
 *   encloses every one of its ZIPs' discs (max of distance to a ZIP centroid plus that ZIP's
 *   radius), at least CITY_RADIUS_MIN. A ZIP more than CITY_OUTLIER_METERS from the median
 *   of the city's centroids is taken for a registry error and left out, so one bad row
 *   cannot stretch a city across the map.
 */
export class ZipRegistry {
  private readonly byZip = new Map<string, ZipRow>();
  private readonly byCity = new Map<string, ZipRow[]>();
  private readonly states = new Set<string>();
  private readonly grid: CentroidGrid;

  constructor(rows: Iterable<ZipRow>) {
    for (const row of rows) this.add(row);
    this.grid = new CentroidGrid(this.placed());
  }

  /** The row of a 5-digit ZIP, placed or not. */
  zip(zip: string): ZipRow | undefined {
    return this.byZip.get(zip);
  }

  /** Whether any ZIP carries this USPS state, territory or military code. */
  hasState(state: string): boolean {
    return this.states.has(state.toUpperCase());
  }

  /** The ZIPs of a city (name matched as by `cityKey`), placed or not. */
  cityZips(city: string, state: string): readonly ZipRow[] {
    return this.byCity.get(cityKey(city, state)) ?? [];
  }

  /** A placed ZIP's centroid and radius (see the class comment). */
  zipArea(row: ZipRow & { point: GeoPoint }): PlaceArea {
    const nearest = this.grid.nearestOtherMeters(row.point, 2 * ZIP_RADIUS_MAX);
    const half = nearest === undefined ? ZIP_RADIUS_MAX : nearest / 2;
    return { point: row.point, radiusMeters: Math.min(ZIP_RADIUS_MAX, Math.max(ZIP_RADIUS_MIN, half)) };
  }

  /** A city's centre and radius from its placed ZIPs (see the class comment); at least one. */
  cityArea(rows: readonly (ZipRow & { point: GeoPoint })[]): PlaceArea {
    const middle = { lat: median(rows.map((r) => r.point.lat)), lng: median(rows.map((r) => r.point.lng)) };
    const kept = rows.filter((r) => distanceMeters(middle, r.point) <= CITY_OUTLIER_METERS);
    const point = {
      lat: kept.reduce((s, r) => s + r.point.lat, 0) / kept.length,
      lng: kept.reduce((s, r) => s + r.point.lng, 0) / kept.length,
    };
    const reach = kept.map((r) => distanceMeters(point, r.point) + this.zipArea(r).radiusMeters);
    return { point, radiusMeters: Math.max(CITY_RADIUS_MIN, ...reach) };
  }

  private add(row: ZipRow): void {
    this.byZip.set(row.zip, row);
    this.states.add(row.state);
    const key = cityKey(row.city, row.state);
    const rows = this.byCity.get(key);
    if (rows === undefined) this.byCity.set(key, [row]);
    else rows.push(row);
  }

  private *placed(): Generator<GeoPoint> {
    for (const row of this.byZip.values()) if (row.point !== undefined) yield row.point;
  }
}

/** The median (upper median for an even count) of a non-empty list. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Whether a row has a centroid. */
export function isPlaced(row: ZipRow): row is ZipRow & { point: GeoPoint } {
  return row.point !== undefined;
}

const ABBREVIATIONS: Readonly<Record<string, string>> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount' };

/**
 * The key a city is found by: case, punctuation and spacing ignored, and the abbreviations
 * St, Ste, Ft and Mt read as the words the registry spells out ("St. Louis" = "Saint Louis").
 */
export function cityKey(city: string, state: string): string {
  const words = city
    .toLowerCase()
    .replace(/[.']/g, '')
    .split(/[\s-]+/)
    .filter((w) => w !== '');
  return `${words.map((w) => ABBREVIATIONS[w] ?? w).join(' ')}|${state.toUpperCase()}`;
}

let shared: ZipRegistry | undefined;

/**
 * The registry over the `zipcodes` package (US rows only; its data comes from
 * federalgovernmentzipcodes.us), built on first use and kept.
 */
export function zipcodesRegistry(): ZipRegistry {
  shared ??= new ZipRegistry(usRows());
  return shared;
}

/** Codes whose ZIPs may lie east of Greenwich: Alaska's Aleutians, the Pacific, the military. */
const EASTERN_LONGITUDES = new Set(['AK', 'HI', 'AS', 'GU', 'MP', 'FM', 'MH', 'PW', 'UM', 'AA', 'AE', 'AP']);

function* usRows(): Generator<ZipRow> {
  for (const c of Object.values(zipcodes.codes)) {
    if (!/^\d{5}$/.test(c.zip)) continue; // Canadian postal codes share the table
    const state = c.state.toUpperCase();
    yield { zip: c.zip, point: centroid(c.latitude, c.longitude, state), city: c.city, state };
  }
}

/**
 * A row's centroid: none for the registry's 0,0 placeholder; a positive longitude elsewhere
 * than EASTERN_LONGITUDES is a sign slip in the data (10200, New York, at +73.95) and flipped.
 */
function centroid(lat: number, lng: number, state: string): GeoPoint | undefined {
  if (lat === 0 && lng === 0) return undefined;
  return { lat, lng: lng > 0 && !EASTERN_LONGITUDES.has(state) ? -lng : lng };
}
