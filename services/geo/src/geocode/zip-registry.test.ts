import { describe, expect, test } from 'vitest';
import { distanceMeters } from './centroid-grid.js';
import type { GeoPoint } from './geocoder.js';
import {
  CITY_RADIUS_MIN,
  ZIP_RADIUS_MAX,
  ZIP_RADIUS_MIN,
  ZipRegistry,
  cityKey,
  isPlaced,
  zipcodesRegistry,
  type ZipRow,
} from './zip-registry.js';

/** A point `km` east of (lat, lng) along the parallel (close enough at these distances). */
function east(lat: number, lng: number, km: number): GeoPoint {
  return { lat, lng: lng + km / (111.195 * Math.cos((lat * Math.PI) / 180)) };
}

function row(zip: string, point: GeoPoint | undefined, city = 'Town', state = 'CO'): ZipRow {
  return { zip, point, city, state };
}

function placed(registry: ZipRegistry, zip: string) {
  const r = registry.zip(zip)!;
  if (!isPlaced(r)) throw new Error(`${zip} is unplaced`);
  return r;
}

describe('ZIP radius: half the distance to the nearest other centroid, clamped to [1 km, 15 km]', () => {
  test('is half the spacing when that lies inside the bounds', () => {
    const a = { lat: 40, lng: -105 };
    const b = east(40, -105, 10);
    const registry = new ZipRegistry([row('10000', a), row('10001', b), row('10002', east(40, -105, 40))]);
    expect(registry.zipArea(placed(registry, '10000')).radiusMeters).toBeCloseTo(distanceMeters(a, b) / 2, 6);
  });

  test('is at least 1 km however close the neighbour', () => {
    const registry = new ZipRegistry([row('10000', { lat: 40, lng: -105 }), row('10001', east(40, -105, 0.3))]);
    expect(registry.zipArea(placed(registry, '10000')).radiusMeters).toBe(ZIP_RADIUS_MIN);
  });

  test('is at most 15 km, also when no other centroid lies within 30 km', () => {
    const registry = new ZipRegistry([
      row('10000', { lat: 40, lng: -105 }),
      row('10001', east(40, -105, 31)),
      row('20000', { lat: 45, lng: -100 }),
    ]);
    expect(registry.zipArea(placed(registry, '10000')).radiusMeters).toBe(ZIP_RADIUS_MAX);
    expect(registry.zipArea(placed(registry, '20000')).radiusMeters).toBe(ZIP_RADIUS_MAX);
  });

  test('ignores ZIPs sharing the very same centroid (PO boxes placed at a city centre)', () => {
    const a = { lat: 40, lng: -105 };
    const b = east(40, -105, 6);
    const registry = new ZipRegistry([row('10000', a), row('10099', { ...a }), row('10001', b)]);
    expect(registry.zipArea(placed(registry, '10000')).radiusMeters).toBeCloseTo(distanceMeters(a, b) / 2, 6);
  });

  test('finds neighbours across the antimeridian', () => {
    const a = { lat: 52, lng: 179.97 };
    const b = { lat: 52, lng: -179.95 };
    const registry = new ZipRegistry([row('99000', a, 'Adak', 'AK'), row('99001', b, 'Adak', 'AK')]);
    expect(registry.zipArea(placed(registry, '99000')).radiusMeters).toBeCloseTo(distanceMeters(a, b) / 2, 6);
  });

  test('agrees with a scan of every centroid on a sample of real ZIPs', () => {
    const registry = zipcodesRegistry();
    const all = [...Array(100_000).keys()]
      .map((n) => registry.zip(String(n).padStart(5, '0')))
      .filter((r) => r !== undefined)
      .filter(isPlaced);
    for (const zip of all.filter((_, i) => i % 1_000 === 0)) {
      const nearest = Math.min(...all.map((o) => distanceMeters(zip.point, o.point)).filter((d) => d > 0));
      const expected = Math.min(ZIP_RADIUS_MAX, Math.max(ZIP_RADIUS_MIN, nearest / 2));
      expect(registry.zipArea(zip).radiusMeters, zip.zip).toBeCloseTo(expected, 6);
    }
  });
});

describe('city area: mean of its ZIP centroids, radius enclosing every ZIP disc, at least 2 km', () => {
  test('encloses each ZIP centroid plus that ZIP radius', () => {
    const a = { lat: 40, lng: -105 };
    const b = east(40, -105, 10);
    const registry = new ZipRegistry([
      row('10000', a, 'Twin'),
      row('10001', b, 'Twin'),
      row('10002', east(40, -105, 60), 'Far'),
    ]);
    const area = registry.cityArea(registry.cityZips('twin', 'co').filter(isPlaced));
    expect(area.point.lat).toBeCloseTo(40, 9);
    expect(area.point.lng).toBeCloseTo((a.lng + b.lng) / 2, 9);
    const half = distanceMeters(a, b) / 2;
    expect(area.radiusMeters).toBeCloseTo(distanceMeters(area.point, a) + half, 3);
  });

  test('leaves out a ZIP lying more than 100 km from the median of its city (a registry error)', () => {
    const a = { lat: 40, lng: -105 };
    const b = east(40, -105, 4);
    const c = east(40, -105, 8);
    const rows = [row('10000', a, 'Town'), row('10001', b, 'Town'), row('10002', c, 'Town')];
    const clean = new ZipRegistry(rows).cityArea(rows.filter(isPlaced));
    const stray = row('10003', { lat: 40, lng: 105 }, 'Town');
    const withStray = new ZipRegistry([...rows, stray]).cityArea([...rows, stray].filter(isPlaced));
    expect(withStray).toEqual(clean);
  });

  test('is at least 2 km for a one-ZIP town', () => {
    const registry = new ZipRegistry([
      row('10000', { lat: 40, lng: -105 }, 'Tiny'),
      row('10001', east(40, -105, 1), 'Next'),
    ]);
    const area = registry.cityArea(registry.cityZips('Tiny', 'CO').filter(isPlaced));
    expect(area).toEqual({ point: { lat: 40, lng: -105 }, radiusMeters: CITY_RADIUS_MIN });
  });
});

describe('cityKey', () => {
  test.each([
    ['St. Louis', 'Saint Louis'],
    ['ST LOUIS', 'saint louis'],
    ['Ft Collins', 'Fort Collins'],
    ['Mt. Vernon', 'Mount Vernon'],
    ["Coeur d'Alene", 'Coeur dAlene'],
    ['Winston-Salem', 'Winston Salem'],
    ['  New   York ', 'new york'],
  ])('matches %j with the registry spelling %j', (typed, registry) => {
    expect(cityKey(typed, 'mo')).toBe(cityKey(registry, 'MO'));
  });
});

describe('zipcodesRegistry', () => {
  test('holds US ZIPs only and is built once', () => {
    const registry = zipcodesRegistry();
    expect(registry).toBe(zipcodesRegistry());
    expect(registry.zip('80202')).toEqual({
      zip: '80202',
      point: { lat: 39.7491, lng: -104.9946 },
      city: 'Denver',
      state: 'CO',
    });
    expect(registry.hasState('co')).toBe(true);
    expect(registry.hasState('ZZ')).toBe(false);
  });

  test('flips the sign slip of a positive longitude in the lower 48 (10200, New York)', () => {
    expect(zipcodesRegistry().zip('10200')?.point).toEqual({ lat: 40.77, lng: -73.95 });
  });

  test('keeps positive longitudes where they are real (Hagatna, Guam)', () => {
    expect(zipcodesRegistry().zip('96910')?.point).toEqual({ lat: 13.47, lng: 144.74 });
  });

  test('keeps military ZIPs, which the registry places at 0,0, as unplaced', () => {
    expect(zipcodesRegistry().zip('34001')?.point).toBeUndefined();
  });
});
