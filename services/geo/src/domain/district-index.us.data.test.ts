import { beforeAll, describe, expect, test } from 'vitest';
import { loadGeoJsonFile } from '../store/geojson-file.js';
import { loadUsAtlas } from '../store/us-atlas.js';
import { seededRandom as rng, sharedData } from '@civicgraph/kit';
import { DistrictIndex } from './district-index.js';
import { polygonsOf } from './point-in-polygon.js';
import { Level, type RegionRecord } from './region.js';

type LatLng = [number, number];

/** All vertices of all regions as [lat, lng]. */
function vertices(regions: readonly RegionRecord[]): LatLng[] {
  return regions.flatMap((r) =>
    polygonsOf(r.geometry)
      .flat(2)
      .map(([x, y]) => [y!, x!] as LatLng),
  );
}

/**
 * 10,000 points: half uniform over lon −180…−60, lat 15…72; a quarter jittered by tiny
 * amounts around random vertices or on edge midpoints (to land on and beside boundaries);
 * a tenth exactly on vertices; the rest over Alaska and the Aleutians (both sides of ±180°)
 * and Hawaii.
 */
function testPoints(regions: readonly RegionRecord[], seed: number): LatLng[] {
  const random = rng(seed);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const verts = vertices(regions);
  const pick = () => verts[Math.floor(random() * verts.length)]!;
  const tiny = () => [0, 1e-12, 1e-9, 1e-7, 1e-5, 1e-3][Math.floor(random() * 6)]! * (random() < 0.5 ? -1 : 1);
  const points: LatLng[] = [];
  for (let k = 0; k < 5000; k += 1) points.push([between(15, 72), between(-180, -60)]);
  for (let k = 0; k < 2000; k += 1) {
    const [lat, lng] = pick();
    points.push([lat + tiny(), lng + tiny()]);
  }
  for (let k = 0; k < 500; k += 1) {
    const [[aLat, aLng], [bLat, bLng]] = [pick(), pick()];
    const near = Math.hypot(aLat - bLat, aLng - bLng) < 0.5;
    points.push(near ? [(aLat + bLat) / 2, (aLng + bLng) / 2] : [aLat, aLng + tiny()]);
  }
  for (let k = 0; k < 1000; k += 1) points.push(pick());
  for (let k = 0; k < 1000; k += 1)
    points.push([between(50, 72), random() < 0.3 ? between(165, 180) : between(-180, -129)]);
  for (let k = 0; k < 500; k += 1) points.push([between(18.5, 22.5), between(-161, -154)]);
  return points;
}

const populationCsv = sharedData('population/derived/county-population-v2023.csv');
const cd119 = sharedData('boundaries/congressional/us-cd119-20m.geojson');
const coSenate = sharedData('boundaries/state-legislative/co/co-state-senate-districts-2021.geojson');
const coHouse = sharedData('boundaries/state-legislative/co/co-state-house-districts-2021.geojson');

function mismatches(index: DistrictIndex, points: readonly LatLng[]) {
  const slugs = (rs: RegionRecord[]) => rs.map((r) => r.slug);
  return points
    .map(([lat, lng]) => ({
      lat,
      lng,
      lookup: slugs(index.lookup(lat, lng)),
      bruteForce: slugs(index.bruteForce(lat, lng)),
    }))
    .filter((m) => JSON.stringify(m.lookup) !== JSON.stringify(m.bruteForce));
}

describe('DistrictIndex over us-atlas states and counties', () => {
  let regions: RegionRecord[];
  let index: DistrictIndex;
  beforeAll(() => {
    regions = loadUsAtlas({ populationCsv });
    index = DistrictIndex.build(regions, { resolution: 5 });
  });

  test('lookup equals brute force at 10,000 points inside, outside and on boundaries', () => {
    const points = testPoints(regions, 20261101);
    expect(points).toHaveLength(10_000);
    expect(mismatches(index, points).slice(0, 20)).toEqual([]);
  });

  test('counties tile their states: every point is in as many counties as states, and in the same state', () => {
    const points = testPoints(regions, 42);
    const bad = points.filter(([lat, lng]) => {
      const found = index.lookup(lat, lng);
      const states = found.filter((r) => r.level === Level.LEVEL_STATE).map((r) => r.state);
      const counties = found.filter((r) => r.level === Level.LEVEL_COUNTY).map((r) => r.state);
      return JSON.stringify(states) !== JSON.stringify(counties);
    });
    expect(bad.slice(0, 20)).toEqual([]);
  });

  test('points in the Aleutians west of 180° and on Hawaii resolve', () => {
    expect(index.lookup(52.93, 173.2).map((r) => r.slug)).toEqual([
      'region:ak',
      'region:ak-aleutians-west-census-area',
    ]);
    expect(index.lookup(21.307, -157.858).map((r) => r.slug)).toEqual(['region:hi', 'region:hi-honolulu-county']);
  });
});

describe.skipIf(cd119 === undefined || coSenate === undefined || coHouse === undefined)(
  'DistrictIndex with congressional and Colorado legislative districts',
  () => {
    let regions: RegionRecord[];
    let index: DistrictIndex;
    beforeAll(() => {
      regions = [
        ...loadUsAtlas({ populationCsv }),
        ...loadGeoJsonFile(cd119!, Level.LEVEL_CONGRESSIONAL_DISTRICT).regions,
        ...loadGeoJsonFile(coSenate!, Level.LEVEL_STATE_LEGISLATIVE_UPPER, { state: 'co' }).regions,
        ...loadGeoJsonFile(coHouse!, Level.LEVEL_STATE_LEGISLATIVE_LOWER, { state: 'co' }).regions,
      ];
      index = DistrictIndex.build(regions, { resolution: 5 });
      console.info('district index stats', index.stats);
    });

    test('the Colorado capitol is in one region of each level, state first', () => {
      const found = index.lookup(39.7392, -104.9903);
      expect(found.map((r) => r.level)).toEqual([2, 3, 4, 5, 6]);
      expect(found.slice(0, 3).map((r) => r.slug)).toEqual(['region:co', 'region:co-denver-county', 'region:co-cd-1']);
      expect(found[3]!.slug).toMatch(/^region:co-sldu-\d+$/);
      expect(found[4]!.slug).toMatch(/^region:co-sldl-\d+$/);
    });

    test('lookup equals brute force at 10,000 points with every layer loaded', () => {
      const points = testPoints(regions, 7);
      const colorado = testPoints(
        regions.filter((r) => r.state === 'co' && r.level >= Level.LEVEL_STATE_LEGISLATIVE_UPPER),
        8,
      ).slice(5000, 7500);
      expect(mismatches(index, [...points, ...colorado]).slice(0, 20)).toEqual([]);
    });
  },
);
