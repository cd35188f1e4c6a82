import type { PolygonCoordinates, Position, RegionGeometry } from '../../domain/region.js';
import { isLonLat, type SourceCrs } from './crs.js';

/** A geometry in WGS84 lon/lat: reprojected from `crs` when it is not lon/lat already. */
export function toLonLat(geometry: RegionGeometry, crs: SourceCrs): RegionGeometry {
  const convert = crs.toLonLat;
  if (convert === undefined) return geometry;
  const polygon = (p: PolygonCoordinates): PolygonCoordinates => p.map((ring) => ring.map(convert));
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: polygon(geometry.coordinates) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map(polygon) };
}

/** The first position outside [-180, 180] × [-90, 90] (or not finite), or undefined. */
export function firstNonLonLat(geometry: RegionGeometry): Position | undefined {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const polygon of polygons) {
    for (const ring of polygon) {
      const bad = ring.find((p) => !isLonLat(p));
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}
