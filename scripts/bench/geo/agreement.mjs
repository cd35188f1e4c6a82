// Agreement between two engines' answers on the same points. civicgraph is half-open and
// ST_Covers includes the boundary, so a point lying exactly on an edge of every region the
// two answers differ on is excluded (counted apart), not called a disagreement.
import { polygons } from './workloads.mjs';

/** An answer as a comparable key: its slugs, sorted, joined. */
export function answerKey(slugs) {
  return slugs.length === 0 ? '' : slugs.length === 1 ? slugs[0] : [...slugs].sort().join('|');
}

/**
 * Compares answer keys `a` and `b` over the first points of `set` both answered (at most `limit`).
 * Returns compared count, points on a boundary (excluded), off-boundary disagreements,
 * and the largest distance (m) from a disagreeing point to a boundary it was judged against.
 */
export function compare(a, b, set, regionsBySlug, limit = Infinity) {
  const n = Math.min(a.length, b.length, limit);
  let onBoundary = 0;
  let disagreements = 0;
  let maxDistanceM = 0;
  const examples = [];
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) continue;
    const diff = symmetricDifference(a[i], b[i]);
    const lng = set.lng[i],
      lat = set.lat[i];
    const distances = diff.map((slug) => boundaryDistance(regionsBySlug.get(slug).geometry, lng, lat));
    if (distances.every((d) => d.exact)) {
      onBoundary += 1;
      continue;
    }
    disagreements += 1;
    const far = Math.max(...distances.map((d) => d.metres));
    maxDistanceM = Math.max(maxDistanceM, far);
    if (examples.length < 3) examples.push({ lng, lat, only: diff, metres: far });
  }
  const counted = n - onBoundary;
  return {
    n,
    onBoundary,
    disagreements,
    maxDistanceM,
    examples,
    agreePct: counted === 0 ? 100 : (100 * (counted - disagreements)) / counted,
  };
}

function symmetricDifference(a, b) {
  const x = new Set(a === '' ? [] : a.split('|'));
  const y = new Set(b === '' ? [] : b.split('|'));
  return [...[...x].filter((s) => !y.has(s)), ...[...y].filter((s) => !x.has(s))];
}

/**
 * Distance from a point to a geometry's nearest edge (metres, equirectangular at the point's
 * latitude), and whether the point lies exactly on an edge (orientation test exactly zero,
 * inside the edge's bounding box).
 */
export function boundaryDistance(geometry, lng, lat) {
  const kx = 111_320 * Math.cos((lat * Math.PI) / 180),
    ky = 111_320;
  let best = Infinity;
  let exact = false;
  for (const poly of polygons(geometry)) {
    for (const ring of poly) {
      for (let k = 0; k + 1 < ring.length; k++) {
        const [x1, y1] = ring[k],
          [x2, y2] = ring[k + 1];
        if (onSegment(x1, y1, x2, y2, lng, lat)) exact = true;
        best = Math.min(best, segmentDistance((x1 - lng) * kx, (y1 - lat) * ky, (x2 - lng) * kx, (y2 - lat) * ky));
      }
    }
  }
  return { metres: best, exact };
}

function onSegment(x1, y1, x2, y2, px, py) {
  if (px < Math.min(x1, x2) || px > Math.max(x1, x2) || py < Math.min(y1, y2) || py > Math.max(y1, y2)) return false;
  return (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) === 0;
}

/** Distance from the origin to segment (x1,y1)–(x2,y2), planar. */
function segmentDistance(x1, y1, x2, y2) {
  const dx = x2 - x1,
    dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(x1 * dx + y1 * dy) / len2));
  return Math.hypot(x1 + t * dx, y1 + t * dy);
}
