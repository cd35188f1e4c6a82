import { bandOf, buildEdgeBands, type EdgeBands } from './edge-bands.js';
import { crossesEast } from './engine/predicates.js';
import type { PolygonCoordinates, RegionGeometry } from './region.js';

/**
 * One polygon ready for repeated point tests: every ring's vertices in one flat
 * `[x0, y0, x1, y1, …]` array (x = longitude, y = latitude), each ring closed (its first
 * vertex repeated last, so vertex v and v + 1 of one ring always make an edge), where
 * each ring ends, its edges bucketed by latitude, and its bounding box.
 */
export interface PreparedPolygon {
  readonly xy: Float64Array;
  /** Exclusive end of each ring, counted in vertices (not array slots), closing vertex included. */
  readonly ringEnds: Uint32Array;
  readonly bands: EdgeBands;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** A Polygon or MultiPolygon prepared for point tests, with its overall bounding box. */
export interface PreparedGeometry {
  readonly polygons: readonly PreparedPolygon[];
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** The member polygons of a geometry (a Polygon is a MultiPolygon of one). */
export function polygonsOf(geometry: RegionGeometry): readonly PolygonCoordinates[] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Flattens a geometry into typed arrays and bounding boxes for `containsPoint`. */
export function prepareGeometry(geometry: RegionGeometry): PreparedGeometry {
  const polygons = polygonsOf(geometry)
    .map(preparePolygon)
    .filter((p) => p.ringEnds.length > 0);
  return {
    polygons,
    minX: polygons.reduce((m, p) => Math.min(m, p.minX), Infinity),
    minY: polygons.reduce((m, p) => Math.min(m, p.minY), Infinity),
    maxX: polygons.reduce((m, p) => Math.max(m, p.maxX), -Infinity),
    maxY: polygons.reduce((m, p) => Math.max(m, p.maxY), -Infinity),
  };
}

function preparePolygon(rings: PolygonCoordinates): PreparedPolygon {
  const kept = rings.map(openRing).filter((r) => r.length > 0);
  const xy = new Float64Array(kept.reduce((n, r) => n + 2 * (r.length + 1), 0));
  const ringEnds = new Uint32Array(kept.length);
  let v = 0;
  kept.forEach((ring, k) => {
    for (const [x, y] of [...ring, ring[0]!]) {
      xy[2 * v] = x!;
      xy[2 * v + 1] = y!;
      v += 1;
    }
    ringEnds[k] = v;
  });
  const bounds = boundsOf(xy);
  return { xy, ringEnds, bands: buildEdgeBands(xy, ringEnds, bounds.minY, bounds.maxY), ...bounds };
}

/** The ring without its closing vertex (GeoJSON repeats the first vertex last). */
function openRing(ring: PolygonCoordinates[number]): PolygonCoordinates[number] {
  const first = ring[0];
  const last = ring[ring.length - 1];
  const closed = ring.length > 1 && first![0] === last![0] && first![1] === last![1];
  return closed ? ring.slice(0, -1) : ring;
}

function boundsOf(xy: Float64Array): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < xy.length; i += 2) {
    const x = xy[i]!,
      y = xy[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/**
 * Whether the point (x = longitude, y = latitude) lies in the geometry, tested exactly in
 * the planar lon/lat plane. A Polygon is its outer ring minus its holes, decided by the
 * even–odd rule over all of the polygon's rings; a MultiPolygon contains a point when any
 * member polygon does.
 *
 * Boundary rule (half-open): a point exactly on a boundary belongs to the polygon that
 * lies immediately to its east, and, on an east–west edge, to the polygon immediately to
 * its north — as if the point were nudged an infinitesimal step east and then a far
 * smaller step north before testing. The test casts a ray due east and counts an edge
 * only when `yLow <= y < yHigh` (its lower endpoint counts, its upper endpoint does not;
 * horizontal edges never count) and the point lies strictly west of the edge. The side is
 * decided by an exact orientation predicate on the edge taken in a canonical direction
 * (lower endpoint first), so two polygons sharing an edge always make the same decision
 * about it (see `crossesEast`). Hence polygons that tile an area without overlapping
 * (counties in a state, districts in a plan) place every point of that area — including
 * points on shared edges and vertices — in exactly one of them, and a point on the outer
 * boundary of the tiling is inside only when the tiling lies to its east (or north, on an
 * east–west edge).
 */
export function containsPoint(geometry: PreparedGeometry, x: number, y: number): boolean {
  if (x < geometry.minX || x > geometry.maxX || y < geometry.minY || y > geometry.maxY) return false;
  for (const polygon of geometry.polygons) {
    if (polygonContains(polygon, x, y)) return true;
  }
  return false;
}

/**
 * Even–odd crossing count over one polygon's rings (see `containsPoint` for the rule);
 * only the edges in the point's latitude band can cross its ray, so only they are checked.
 */
export function polygonContains(polygon: PreparedPolygon, x: number, y: number): boolean {
  if (x < polygon.minX || x > polygon.maxX || y < polygon.minY || y > polygon.maxY) return false;
  const { xy, bands } = polygon;
  const { starts, ids } = bands;
  const band = bandOf(bands, y);
  let inside = false;
  for (let k = starts[band]!, end = starts[band + 1]!; k < end; k += 1) {
    const i = 2 * ids[k]!;
    if (crossesEast(xy[i]!, xy[i + 1]!, xy[i + 2]!, xy[i + 3]!, x, y)) inside = !inside;
  }
  return inside;
}
