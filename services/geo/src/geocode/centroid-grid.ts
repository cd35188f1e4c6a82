import { greatCircleDistance } from 'h3-js';
import type { GeoPoint } from './geocoder.js';

const CELL_DEGREES = 0.25;
const ROWS = 180 / CELL_DEGREES;
const COLS = 360 / CELL_DEGREES;
const METERS_PER_DEGREE = 111_195; // one degree of latitude on the mean sphere
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export function distanceMeters(a: GeoPoint, b: GeoPoint): number {
  return greatCircleDistance([a.lat, a.lng], [b.lat, b.lng], 'm');
}

/**
 * Points bucketed on a quarter-degree lat/lng grid, for "nearest other point within a bound"
 * questions: a bounded search reads only the few buckets the bound can reach, where a scan
 * of every ZIP centroid would cost 40,000 distance computations per question.
 */
export class CentroidGrid {
  private readonly buckets = new Map<number, GeoPoint[]>();

  constructor(points: Iterable<GeoPoint>) {
    for (const p of points) {
      const key = bucketKey(row(p.lat), col(p.lng));
      const bucket = this.buckets.get(key);
      if (bucket === undefined) this.buckets.set(key, [p]);
      else bucket.push(p);
    }
  }

  /**
   * The distance from `from` to the nearest point at a different position, or undefined
   * when none lies within `boundMeters`. Points at the very same position do not count.
   */
  nearestOtherMeters(from: GeoPoint, boundMeters: number): number | undefined {
    let best = Infinity;
    for (const p of this.candidates(from, boundMeters)) {
      const d = distanceMeters(from, p);
      if (d > 0 && d < best) best = d;
    }
    return best <= boundMeters ? best : undefined;
  }

  private *candidates(from: GeoPoint, boundMeters: number): Generator<GeoPoint> {
    const rowSpan = Math.ceil(boundMeters / (METERS_PER_DEGREE * CELL_DEGREES));
    const r0 = row(from.lat);
    // East–west a degree shrinks with cos(lat); take the poleward edge of the searched rows.
    const maxLat = Math.min(89.9, Math.abs(from.lat) + (rowSpan + 1) * CELL_DEGREES);
    const colMeters = METERS_PER_DEGREE * CELL_DEGREES * Math.cos(maxLat * RAD);
    const colSpan = Math.min(COLS / 2, Math.ceil(boundMeters / colMeters));
    const c0 = col(from.lng);
    for (let r = Math.max(0, r0 - rowSpan); r <= Math.min(ROWS - 1, r0 + rowSpan); r += 1) {
      for (let dc = -colSpan; dc <= colSpan; dc += 1) {
        yield* this.buckets.get(bucketKey(r, (c0 + dc + COLS) % COLS)) ?? [];
      }
    }
  }
}

function row(lat: number): number {
  return Math.min(ROWS - 1, Math.floor((lat + 90) / CELL_DEGREES));
}

function col(lng: number): number {
  return Math.floor(((((lng + 180) % 360) + 360) % 360) / CELL_DEGREES) % COLS;
}

function bucketKey(r: number, c: number): number {
  return r * COLS + c;
}
