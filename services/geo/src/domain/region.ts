import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { graphqlLevel, LEVELS } from '@civicgraph/kit';

export { Level };
export { graphqlLevel, restLevel, levelFromRest } from '@civicgraph/kit';
export { slugKey, ocdKey } from '@civicgraph/kit';

/** A GeoJSON position: `[lng, lat]` in degrees (any further members, e.g. altitude, are ignored). */
export type Position = readonly number[];

/** A GeoJSON Polygon's coordinates: the outer ring first, then its holes; each ring closed. */
export type PolygonCoordinates = readonly (readonly Position[])[];

/** A region's boundary, GeoJSON-shaped, in unprojected lon/lat (WGS84 / NAD83). */
export type RegionGeometry =
  | { readonly type: 'Polygon'; readonly coordinates: PolygonCoordinates }
  | { readonly type: 'MultiPolygon'; readonly coordinates: readonly PolygonCoordinates[] };

/** One region with a real boundary, as the geo service holds it. */
export interface RegionRecord {
  /** Stable slug, `region:<key>`: `region:co`, `region:co-denver-county`, `region:co-cd-1`. */
  slug: string;
  /** Display name as the source publishes it, e.g. `Denver County`. */
  name: string;
  level: Level;
  /** Census FIPS / GEOID (`08`, `08031`, `0801`); empty when none exists. */
  fips: string;
  /** Resident population from the newest loaded estimate; absent when unknown. */
  population?: number;
  /** Open Civic Data division id, e.g. `ocd-division/country:us/state:co/county:denver`. */
  ocdId: string;
  /** Lowercase USPS code of the state (or DC / territory) the region lies in; '' for national. */
  state: string;
  /** Boundary in `[lng, lat]` degrees. */
  geometry: RegionGeometry;
  /** When this boundary version is in force: who it elects serves under it. */
  validity?: Validity;
  /** Where this version came from; absent for regions built in code (tests). */
  source?: RegionSource;
}

/** Where a boundary version came from, as `/v1/regions/{slug}` lists it. */
export interface RegionSource {
  /** The file or data set, e.g. `tl_2022_08_cd118.zip`, `us-atlas counties-10m.json`. */
  name: string;
  /** When an import stored this version (ISO 8601 date-time); absent for configured maps. */
  importedAt?: string;
  /**
   * Scale denominator of a generalised (cartographic) map, e.g. 20,000,000 for the Census
   * 1:20M files; absent for a full-resolution one (TIGER/Line, a state's official map).
   */
  scale?: number;
}

/** How exact a region's outline is: its source's full resolution, or a generalisation at `scale`. */
export function precisionOf(r: Pick<RegionRecord, 'source'>): { precision: 'full' | 'generalized'; scale: number } {
  const scale = r.source?.scale ?? 0;
  return { precision: scale === 0 ? 'full' : 'generalized', scale };
}

/** A stored version's scale: as its import stamped it, or for one stored before imports did, the one its file's name states; 0 for full resolution. */
export function storedScale(r: Pick<RegionRecord, 'source'>): number {
  return r.source?.scale ?? (r.source === undefined ? undefined : scaleFromName(r.source.name)) ?? 0;
}

/**
 * The scale a Census cartographic boundary file's name states (`cb_2024_us_cd119_20m` →
 * 20,000,000; `_500k`, `_5m`, us-atlas's `-10m` alike); undefined when the name states none.
 */
export function scaleFromName(name: string): number | undefined {
  const m = /(?:^|[_-])(500k|1m|5m|10m|20m)$/i.exec(name.replace(/\.(zip|shp|geojson|json|topojson)$/i, ''));
  if (m === null) return undefined;
  const word = m[1]!.toLowerCase();
  return word === '500k' ? 500_000 : Number(word.slice(0, -1)) * 1_000_000;
}

/**
 * Validity of one boundary version, as half-open ISO-date intervals `[from, to)`; an
 * absent end is unbounded. A redistricting map has two: elections use it from
 * `electionsFrom` (the 119th Congress map: the 2024 elections) while its winners serve from
 * `from` (2025-01-03). Between the two dates a point has an electing district and a
 * serving district that may differ; lookups report both, each marked.
 */
export interface Validity {
  from?: string;
  to?: string;
  /** When elections start using this map; absent → the same as `from`. */
  electionsFrom?: string;
  /** When elections stop using it; absent → the same as `to`. */
  electionsTo?: string;
}

/** The level for a GraphQL `Level` enum word (`CONGRESSIONAL_DISTRICT`), or undefined. */
export function levelFromGraphql(word: string): Level | undefined {
  return LEVELS.find((l) => graphqlLevel(l) === word);
}

/** Canonical answer order: by level (state before county before district…), then slug. */
export function compareRegions(a: RegionRecord, b: RegionRecord): number {
  if (a.level !== b.level) return a.level - b.level;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}
