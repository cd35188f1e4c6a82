import { beforeAll, describe, expect, test } from 'vitest';
import { DistrictIndex } from '../district-index.js';
import type { RegionRecord } from '../region.js';
import {
  bboxOf,
  coloradoLegislative,
  pointsNearEdges,
  sharedData,
  tigerDistricts,
  uniformPoints,
  type LatLng,
} from './test-data.js';

const tiger = sharedData('boundaries/congressional/tiger2022-cd118');

function mismatches(index: DistrictIndex, points: readonly LatLng[]) {
  const slugs = (rs: RegionRecord[]) => rs.map((r) => r.slug).join(' ');
  return points
    .map(([lat, lng]) => ({
      lat,
      lng,
      lookup: slugs(index.lookup(lat, lng)),
      bruteForce: slugs(index.bruteForce(lat, lng)),
    }))
    .filter((m) => m.lookup !== m.bruteForce);
}

describe.skipIf(tiger === undefined)('DistrictIndex on full-resolution TIGER outlines', () => {
  let colorado: RegionRecord[];
  let others: RegionRecord[];
  beforeAll(async () => {
    colorado = [...(await tigerDistricts('08')), ...coloradoLegislative()];
    others = (await Promise.all(['02', '09', '10', '44', '50'].map(tigerDistricts))).flat();
  });

  test('Colorado districts (TIGER CD118 and legislative): lookup equals brute force inside, on and within 100 m of edges', () => {
    const index = DistrictIndex.build(colorado, { resolution: 5 });
    expect(index.stats.vertices).toBeGreaterThan(300_000);
    const points = [...uniformPoints(10_000, 1, bboxOf(colorado)), ...pointsNearEdges(colorado, 5000, 2)];
    expect(mismatches(index, points).slice(0, 10)).toEqual([]);
  });

  test.each([6, 7])('at resolution %i the Colorado districts are still exact near edges', (resolution) => {
    const index = DistrictIndex.build(colorado, { resolution });
    expect(mismatches(index, pointsNearEdges(colorado, 3000, resolution)).slice(0, 10)).toEqual([]);
  });

  test('Alaska, across ±180°, and four north-eastern states: lookup equals brute force', () => {
    const index = DistrictIndex.build(others, { resolution: 5 });
    const points = [
      ...uniformPoints(4000, 3, [-180, 51, -129, 72]),
      ...uniformPoints(1000, 4, [172, 51, 180, 54]),
      ...uniformPoints(2000, 5, [-74, 38.4, -71, 45.1]),
      ...pointsNearEdges(others, 5000, 6),
    ];
    expect(mismatches(index, points).slice(0, 10)).toEqual([]);
    expect(index.lookup(52.93, 173.2).map((r) => r.slug)).toEqual(['region:ak-cd-00']);
  });
});
