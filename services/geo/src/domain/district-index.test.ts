import { describe, expect, test } from 'vitest';
import { seededRandom as rng } from '@civicgraph/kit';
import { DistrictIndex } from './district-index.js';
import { Level, type RegionGeometry, type RegionRecord } from './region.js';

function box(x0: number, y0: number, x1: number, y1: number): number[][] {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

function region(slug: string, level: Level, geometry: RegionGeometry): RegionRecord {
  return { slug, name: slug, level, fips: '', ocdId: '', state: 'zz', geometry };
}

const slugs = (rs: RegionRecord[]) => rs.map((r) => r.slug);

/** A 6 × 6 grid of 0.5° "counties" inside one "state", with an enclave cut out of one county. */
function tiledRegions(): RegionRecord[] {
  const regions = [region('region:zz', Level.LEVEL_STATE, { type: 'Polygon', coordinates: [box(-105, 39, -102, 42)] })];
  for (let i = 0; i < 6; i += 1) {
    for (let j = 0; j < 6; j += 1) {
      const [x0, y0] = [-105 + i * 0.5, 39 + j * 0.5];
      const outer = box(x0, y0, x0 + 0.5, y0 + 0.5);
      const rings = i === 2 && j === 2 ? [outer, box(x0 + 0.1, y0 + 0.1, x0 + 0.3, y0 + 0.3)] : [outer];
      regions.push(region(`region:zz-c${i}${j}`, Level.LEVEL_COUNTY, { type: 'Polygon', coordinates: rings }));
    }
  }
  regions.push(
    region('region:zz-enclave', Level.LEVEL_COUNTY, {
      type: 'Polygon',
      coordinates: [box(-103.9, 40.1, -103.7, 40.3)],
    }),
  );
  return regions;
}

function expectSameAsBruteForce(index: DistrictIndex, points: readonly [number, number][]): void {
  const mismatches = points
    .map(([lat, lng]) => ({
      lat,
      lng,
      lookup: slugs(index.lookup(lat, lng)),
      brute: slugs(index.bruteForce(lat, lng)),
    }))
    .filter((m) => JSON.stringify(m.lookup) !== JSON.stringify(m.brute));
  expect(mismatches.slice(0, 10)).toEqual([]);
}

describe('DistrictIndex', () => {
  const index = DistrictIndex.build(tiledRegions(), { resolution: 6 });

  test('a point inside a county returns its state and county, by level then slug', () => {
    expect(slugs(index.lookup(39.25, -104.75))).toEqual(['region:zz', 'region:zz-c00']);
  });

  test('a point in an enclave returns the enclave, not the county around it', () => {
    expect(slugs(index.lookup(40.2, -103.8))).toEqual(['region:zz', 'region:zz-enclave']);
  });

  test('a point on a county line returns exactly one county: the one to the east', () => {
    expect(slugs(index.lookup(39.25, -104.5))).toEqual(['region:zz', 'region:zz-c10']);
    expect(slugs(index.lookup(39.5, -104.75))).toEqual(['region:zz', 'region:zz-c01']);
  });

  test('a point outside every region returns nothing', () => {
    expect(index.lookup(10, -50)).toEqual([]);
  });

  test('lookup equals the brute-force answer for random, edge and vertex points', () => {
    const random = rng(11);
    const points: [number, number][] = [];
    for (let k = 0; k < 3000; k += 1) points.push([38.5 + random() * 4, -105.5 + random() * 4]);
    for (let k = 0; k <= 60; k += 1)
      for (const v of [39, 39.5, 40, 40.1, 40.3, 42]) points.push([v, -105 + k * 0.05], [39 + k * 0.05, v - 144]);
    expectSameAsBruteForce(index, points);
  });

  test('at a fine resolution, points near but off the county lines, in cells no line crosses, are exact too', () => {
    const fine = DistrictIndex.build(tiledRegions(), { resolution: 9 });
    const random = rng(12);
    const points: [number, number][] = [];
    for (let k = 0; k < 3000; k += 1) {
      const [line, along, off] = [
        Math.floor(random() * 7) * 0.5,
        random() * 3,
        (random() < 0.5 ? -1 : 1) * (0.002 + random() * 0.02),
      ];
      points.push(random() < 0.5 ? [39 + along, -105 + line + off] : [39 + line + off, -105 + along]);
    }
    expectSameAsBruteForce(fine, points);
  });

  test('the index holds interior and boundary cells and reports its build', () => {
    expect(index.stats).toMatchObject({ regions: 38, resolution: 6, fallbackRegions: 0 });
    expect(index.stats.interiorCells).toBeGreaterThan(0);
    expect(index.stats.boundaryCells).toBeGreaterThan(0);
    expect(index.stats.bytes).toBeGreaterThan(0);
    expect(index.stats.bytesPerVertex).toBeGreaterThan(0);
  });

  test('coordinates out of range are refused', () => {
    expect(() => index.lookup(91, 0)).toThrow(RangeError);
    expect(() => index.lookup(0, -180.5)).toThrow(RangeError);
    expect(() => index.bruteForce(Number.NaN, 0)).toThrow(RangeError);
  });

  test('a resolution outside 0–15 is refused', () => {
    expect(() => DistrictIndex.build([], { resolution: 16 })).toThrow(RangeError);
  });
});

describe('DistrictIndex near the antimeridian', () => {
  // Islands on both sides of ±180°, a planar band drawn "the long way" across the map, and
  // a zero-area sliver ring, which h3 refuses to fill.
  const regions = [
    region('region:zz-east', Level.LEVEL_COUNTY, { type: 'Polygon', coordinates: [box(179.2, 51, 180, 52.5)] }),
    region('region:zz-west', Level.LEVEL_COUNTY, { type: 'Polygon', coordinates: [box(-180, 51, -179.3, 52.5)] }),
    region('region:zz-both', Level.LEVEL_STATE, {
      type: 'MultiPolygon',
      coordinates: [[box(179.2, 51, 180, 52.5)], [box(-180, 51, -179.3, 52.5)]],
    }),
    region('region:zz-band', Level.LEVEL_PLACE, {
      type: 'Polygon',
      coordinates: [
        [
          [-179.5, 50],
          [179.5, 50],
          [179.5, 53],
          [-179.5, 53],
          [-179.5, 50],
        ],
      ],
    }),
    region('region:zz-sliver', Level.LEVEL_PRECINCT, {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [-179.6, 51.5],
            [-179.6, 51.5],
            [-179.6, 51.6],
            [-179.6, 51.5],
          ],
        ],
        [box(-179.7, 51.2, -179.5, 51.4)],
      ],
    }),
  ];
  const index = DistrictIndex.build(regions, { resolution: 5 });

  test('a ring spanning more than 170° of longitude is tested exactly on every lookup', () => {
    expect(index.stats.fallbackRegions).toBe(1);
    expect(slugs(index.lookup(51.5, 0))).toEqual(['region:zz-band']);
  });

  test('lookup equals brute force on both sides of ±180°', () => {
    const random = rng(5);
    const points: [number, number][] = [];
    for (let k = 0; k < 3000; k += 1)
      points.push([50.5 + random() * 2.5, (random() < 0.5 ? 178.5 : -180) + random() * 1.5]);
    for (let k = 0; k <= 40; k += 1)
      points.push([51 + k * 0.0375, 180], [51 + k * 0.0375, -180], [51.5, -179.3 + k * 1e-3]);
    expectSameAsBruteForce(index, points);
    expect(slugs(index.lookup(52, 179.9))).toEqual(['region:zz-both', 'region:zz-east']);
    expect(slugs(index.lookup(52, -179.9))).toEqual(['region:zz-both', 'region:zz-west']);
    expect(slugs(index.lookup(51.3, -179.6))).toEqual(['region:zz-both', 'region:zz-west', 'region:zz-sliver']);
  });
});
