import type { PolygonCoordinates, Position, RegionGeometry } from './region.js';

/** Metres per degree of latitude (mean). */
const M_PER_DEG = 111_320;

/**
 * Douglas–Peucker simplification of a boundary for display, with a tolerance in metres
 * (measured in a local equirectangular frame at each ring's mean latitude). Holes smaller
 * than the tolerance, and rings that collapse below a triangle, are dropped; an outer ring
 * is always kept. Simplified outlines are for drawing, not for point tests: they may
 * overlap their neighbours.
 */
export function simplifyGeometry(geometry: RegionGeometry, toleranceMeters: number): RegionGeometry {
  if (toleranceMeters <= 0) return geometry;
  if (geometry.type === 'Polygon')
    return { type: 'Polygon', coordinates: simplifyPolygon(geometry.coordinates, toleranceMeters) };
  return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => simplifyPolygon(p, toleranceMeters)) };
}

function simplifyPolygon(polygon: PolygonCoordinates, tolerance: number): Position[][] {
  const out: Position[][] = [];
  polygon.forEach((ring, i) => {
    if (i > 0 && extentMeters(ring) < tolerance) return; // a hole smaller than the tolerance
    const simplified = simplifyRing(ring, tolerance);
    if (simplified.length >= 4) out.push(simplified);
    else if (i === 0) out.push([...ring]);
  });
  return out;
}

/** Diagonal of a ring's bounding box, in metres. */
function extentMeters(ring: readonly Position[]): number {
  const xs = ring.map((p) => p[0] ?? 0);
  const ys = ring.map((p) => p[1] ?? 0);
  const lat = (Math.min(...ys) + Math.max(...ys)) / 2;
  const dx = (Math.max(...xs) - Math.min(...xs)) * M_PER_DEG * Math.cos((lat * Math.PI) / 180);
  const dy = (Math.max(...ys) - Math.min(...ys)) * M_PER_DEG;
  return Math.hypot(dx, dy);
}

function simplifyRing(ring: readonly Position[], tolerance: number): Position[] {
  if (ring.length <= 4) return [...ring];
  const lat = ring.reduce((s, p) => s + (p[1] ?? 0), 0) / ring.length;
  const kx = M_PER_DEG * Math.cos((lat * Math.PI) / 180);
  const xy = ring.map((p) => [(p[0] ?? 0) * kx, (p[1] ?? 0) * M_PER_DEG] as const);
  const keep = new Uint8Array(ring.length);
  keep[0] = 1;
  keep[ring.length - 1] = 1;
  // Split the closed ring at its farthest point from the start, so DP has a real chord.
  let far = 1;
  for (let i = 1; i < ring.length - 1; i++) if (dist2(xy[i]!, xy[0]!) > dist2(xy[far]!, xy[0]!)) far = i;
  keep[far] = 1;
  douglasPeucker(xy, 0, far, tolerance * tolerance, keep);
  douglasPeucker(xy, far, ring.length - 1, tolerance * tolerance, keep);
  return ring.filter((_, i) => keep[i] === 1).map((p) => [p[0]!, p[1]!]);
}

type XY = readonly [number, number];

function douglasPeucker(xy: readonly XY[], first: number, last: number, tol2: number, keep: Uint8Array): void {
  const stack: [number, number][] = [[first, last]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    let worst = -1;
    let worstD = tol2;
    for (let i = a + 1; i < b; i++) {
      const d = segmentDist2(xy[i]!, xy[a]!, xy[b]!);
      if (d > worstD) {
        worst = i;
        worstD = d;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push([a, worst], [worst, b]);
  }
}

function dist2(p: XY, q: XY): number {
  return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
}

function segmentDist2(p: XY, a: XY, b: XY): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return dist2(p, [a[0] + t * dx, a[1] + t * dy]);
}

/** Vertices in a geometry, to report what simplification saved. */
export function vertexCount(geometry: RegionGeometry): number {
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polys.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0);
}
