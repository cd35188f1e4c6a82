import { geoArea } from 'd3-geo';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';

/**
 * The API's outlines wind as RFC 7946 asks (exterior rings counter-clockwise); d3-geo reads
 * rings on the sphere, where that winding means "everything but this district". A polygon
 * whose area comes out over a hemisphere is reversed, ring by ring, so either winding draws.
 */
export function rewind<T extends Feature<Polygon | MultiPolygon>>(f: T): T {
  const fix = (rings: Position[][]): Position[][] =>
    geoArea({ type: 'Polygon', coordinates: rings }) > 2 * Math.PI ? rings.map((r) => [...r].reverse()) : rings;
  const g = f.geometry;
  const geometry =
    g.type === 'Polygon'
      ? { type: 'Polygon' as const, coordinates: fix(g.coordinates) }
      : { type: 'MultiPolygon' as const, coordinates: g.coordinates.map(fix) };
  return { ...f, geometry };
}

/**
 * Simplification to ask the boundary endpoint for, in metres, by level: about a pixel of the
 * map as it is usually seen for that level (a state fills the map, a house district a city),
 * so outlines stay crisp while a state's answer stays a few kilobytes.
 */
export function simplifyFor(level: string): number {
  switch (level) {
    case 'national':
      return 5000;
    case 'state':
      return 1000;
    case 'congressional-district':
    case 'county':
      return 100;
    default:
      return 20;
  }
}
