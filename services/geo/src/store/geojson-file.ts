import { readFileSync } from 'node:fs';
import type { Level, PolygonCoordinates, RegionRecord } from '../domain/region.js';
import { polygonsOf } from '../domain/point-in-polygon.js';
import { featureIdentity, type IdentityOptions, type IdentityResult } from './feature-identity.js';
import type { RejectedFeature, SkippedFeature } from './features.js';
import { regionGeometry } from './geojson-geometry.js';

export type { RejectedFeature, SkippedFeature } from './features.js';

/** Options for `loadGeoJsonFile`. */
export type GeoJsonFileOptions = IdentityOptions;

/** The regions a file yielded, the features left out by design and those rejected. */
export interface GeoJsonLoadReport {
  regions: RegionRecord[];
  skipped: SkippedFeature[];
  rejected: RejectedFeature[];
}

/**
 * Reads a GeoJSON FeatureCollection of boundaries at one level (see `featureIdentity` for
 * how slugs, names, FIPS and OCD ids are derived). Throws when the file is not a
 * FeatureCollection; rejects, with a code and reason, features without usable geometry or
 * identity, and skips those that are no region by design (`ZZ` water areas).
 */
export function loadGeoJsonFile(path: string, level: Level, options: GeoJsonFileOptions = {}): GeoJsonLoadReport {
  const collection = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return regionsFromFeatureCollection(collection, level, options, path);
}

/**
 * `loadGeoJsonFile` on parsed JSON. Features that resolve to the same slug (one district
 * split over several features) are merged into one MultiPolygon region.
 */
export function regionsFromFeatureCollection(
  collection: unknown,
  level: Level,
  options: GeoJsonFileOptions = {},
  source = 'input',
): GeoJsonLoadReport {
  const features = (collection as { type?: unknown; features?: unknown } | null)?.features;
  if ((collection as { type?: unknown } | null)?.type !== 'FeatureCollection' || !Array.isArray(features)) {
    throw new Error(`${source}: not a GeoJSON FeatureCollection`);
  }
  const bySlug = new Map<string, RegionRecord>();
  const skipped: SkippedFeature[] = [];
  const rejected: RejectedFeature[] = [];
  features.forEach((f: unknown, index) => {
    const result = toRegion(f, level, options);
    if ('region' in result) mergeInto(bySlug, result.region);
    else if (result.code === 'not_a_district') skipped.push({ index, reason: result.reason });
    else rejected.push({ index, code: result.code, reason: result.reason });
  });
  return { regions: [...bySlug.values()], skipped, rejected };
}

function toRegion(
  f: unknown,
  level: Level,
  options: GeoJsonFileOptions,
): { region: RegionRecord } | Exclude<IdentityResult, { identity: unknown }> {
  const feature = f as { properties?: unknown; geometry?: unknown } | null;
  const geometry = regionGeometry(feature?.geometry ?? null);
  if ('reason' in geometry) return geometry;
  const props = withFeatureId(feature?.properties, (f as { id?: unknown } | null)?.id);
  const identity = featureIdentity(props, level, options);
  if ('reason' in identity) return identity;
  return { region: { ...identity.identity, level, geometry: geometry.geometry } };
}

/**
 * TopoJSON and some GeoJSON (us-atlas) carry the Census GEOID as the feature `id` and
 * only a name in properties: a numeric id stands in for a missing GEOID, and its first
 * two digits for a missing STATEFP.
 */
function withFeatureId(props: unknown, id: unknown): Record<string, unknown> {
  const p = typeof props === 'object' && props !== null ? (props as Record<string, unknown>) : {};
  const geoid = typeof id === 'number' ? String(id) : id;
  if (typeof geoid !== 'string' || !/^\d{2,}$/.test(geoid) || p['GEOID'] !== undefined) return p;
  return { STATEFP: geoid.slice(0, 2), ...p, GEOID: geoid };
}

function mergeInto(bySlug: Map<string, RegionRecord>, region: RegionRecord): void {
  const seen = bySlug.get(region.slug);
  if (seen === undefined) {
    bySlug.set(region.slug, region);
    return;
  }
  const coordinates: PolygonCoordinates[] = [...polygonsOf(seen.geometry), ...polygonsOf(region.geometry)];
  bySlug.set(region.slug, { ...seen, geometry: { type: 'MultiPolygon', coordinates } });
}
