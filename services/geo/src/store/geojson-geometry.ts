import type { PolygonCoordinates, Position, RegionGeometry } from '../domain/region.js';
import type { RejectCode } from './features.js';

/** A geometry usable as a region boundary, or why it is not. */
export type GeometryResult = { geometry: RegionGeometry } | { code: RejectCode; reason: string };

/**
 * Checks a GeoJSON geometry and normalises it to a Polygon or MultiPolygon: a
 * GeometryCollection contributes its polygonal members, rings with fewer than three
 * distinct positions are dropped (a polygon whose outer ring is dropped goes with it), and
 * every position must be a finite lon/lat pair inside [-180, 180] × [-90, 90].
 */
export function regionGeometry(geometry: unknown): GeometryResult {
  if (geometry === null || typeof geometry !== 'object') return { code: 'no_geometry', reason: 'no geometry' };
  let polygons: unknown[];
  try {
    polygons = polygonsIn(geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown });
  } catch (err) {
    if (!(err instanceof Fault)) throw err;
    return { code: err.code, reason: err.message };
  }
  const kept = polygons.map(cleanPolygon).filter((p): p is PolygonCoordinates => p !== undefined);
  if (kept.length === 0) return { code: 'degenerate_geometry', reason: 'empty geometry' };
  const bad = kept.flat(2).find((p) => !isLonLat(p));
  if (bad !== undefined)
    return {
      code: 'not_lon_lat',
      reason: `position ${JSON.stringify(bad)} is not a lon/lat pair (projected coordinates?)`,
    };
  return {
    geometry:
      kept.length === 1 ? { type: 'Polygon', coordinates: kept[0]! } : { type: 'MultiPolygon', coordinates: kept },
  };
}

class Fault extends Error {
  constructor(
    readonly code: RejectCode,
    message: string,
  ) {
    super(message);
  }
}

function polygonsIn(g: { type?: unknown; coordinates?: unknown; geometries?: unknown }): unknown[] {
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return arrayOrThrow(g.coordinates);
  if (g.type === 'GeometryCollection')
    return arrayOrThrow(g.geometries).flatMap((m) => (isPolygonal(m) ? polygonsIn(m as object) : []));
  throw new Fault('not_polygonal', `geometry type ${String(g.type)} is not polygonal`);
}

function isPolygonal(g: unknown): boolean {
  const type = (g as { type?: unknown } | null)?.type;
  return type === 'Polygon' || type === 'MultiPolygon' || type === 'GeometryCollection';
}

function arrayOrThrow(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Fault('malformed_geometry', 'malformed coordinates');
  return value;
}

function cleanPolygon(polygon: unknown): PolygonCoordinates | undefined {
  if (!Array.isArray(polygon) || polygon.length === 0) return undefined;
  const [outer, ...holes] = polygon.map((ring) => (isRing(ring) ? ring : undefined));
  if (outer === undefined) return undefined;
  return [outer, ...holes.filter((h): h is Position[] => h !== undefined)];
}

function isRing(ring: unknown): ring is Position[] {
  if (!Array.isArray(ring) || !ring.every(Array.isArray)) return false;
  return new Set((ring as Position[]).map((p) => `${p[0]},${p[1]}`)).size >= 3;
}

function isLonLat(p: Position): boolean {
  const [x, y] = p;
  return typeof x === 'number' && typeof y === 'number' && x >= -180 && x <= 180 && y >= -90 && y <= 90;
}
