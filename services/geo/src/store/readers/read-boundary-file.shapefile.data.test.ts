import { beforeAll, describe, expect, test } from 'vitest';
import { containsPoint, polygonsOf, prepareGeometry } from '../../domain/point-in-polygon.js';
import { Level, type RegionGeometry } from '../../domain/region.js';
import { regionsFromFeatureCollection } from '../geojson-file.js';
import { readBoundaryFile, type BoundaryFileContents } from './read-boundary-file.js';
import { sharedData } from '@civicgraph/kit';

const censusZip = sharedData('boundaries/congressional/cb_2023_us_cd118_20m.zip');
const tigerColorado = sharedData('boundaries/congressional/tiger2022-cd118/tl_2022_08_cd118.shp');
const tigerConnecticut = sharedData('boundaries/congressional/tiger2022-cd118/tl_2022_09_cd118.shp');
const vipFeed = sharedData('vip/sample_feed_v6.zip');

function bounds(geometries: RegionGeometry[]): { minX: number; minY: number; maxX: number; maxY: number } {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [x, y] of geometries.flatMap((g) => polygonsOf(g).flat(2))) {
    box.minX = Math.min(box.minX, x!);
    box.minY = Math.min(box.minY, y!);
    box.maxX = Math.max(box.maxX, x!);
    box.maxY = Math.max(box.maxY, y!);
  }
  return box;
}

describe.skipIf(censusZip === undefined)('a zipped Census cartographic shapefile', () => {
  let contents: BoundaryFileContents;
  beforeAll(async () => {
    contents = await readBoundaryFile(censusZip!);
  });

  test('is read as a NAD83 lon/lat shapefile without reprojection', () => {
    expect(contents.format).toBe('shapefile');
    expect(contents.layer).toBe('cb_2023_us_cd118_20m');
    expect(contents.crs).toEqual({ name: 'GCS_North_American_1983', reprojected: false });
    expect(contents.collection.features).toHaveLength(437);
    expect(contents.rejected).toEqual([]);
  });

  test('keeps the DBF attributes the identity rules read', () => {
    const colorado1 = contents.collection.features.find((f) => f.properties.GEOID === '0801');
    expect(colorado1?.properties).toMatchObject({ STATEFP: '08', CD118FP: '01', NAMELSAD: 'Congressional District 1' });
  });

  test('feeds regionsFromFeatureCollection, which derives Census slugs and OCD ids', () => {
    const { regions, skipped } = regionsFromFeatureCollection(contents.collection, Level.LEVEL_CONGRESSIONAL_DISTRICT);
    expect(skipped).toEqual([]);
    expect(regions).toHaveLength(437);
    const co1 = regions.find((r) => r.slug === 'region:co-cd-1');
    expect(co1).toMatchObject({
      fips: '0801',
      ocdId: 'ocd-division/country:us/state:co/cd:1',
      name: 'Colorado Congressional District 1',
    });
    expect(containsPoint(prepareGeometry(co1!.geometry), -104.9903, 39.7392)).toBe(true); // Denver
    expect(regions.map((r) => r.slug)).toContain('region:ak-cd-at-large');
  });
});

describe.skipIf(tigerColorado === undefined)('a bare full-resolution TIGER shapefile (Colorado)', () => {
  test('reads the .shp with its .dbf and .prj siblings from disk', async () => {
    const contents = await readBoundaryFile(tigerColorado!);
    expect(contents).toMatchObject({
      format: 'shapefile',
      layer: 'tl_2022_08_cd118',
      crs: { name: 'GCS_North_American_1983', reprojected: false },
    });
    expect(contents.collection.features).toHaveLength(8);
    expect(contents.rejected).toEqual([]);
    expect(contents.collection.features[0]?.properties).toHaveProperty('STATEFP20', '08');
  });

  test('its 2020-suffixed fields (STATEFP20, GEOID20, NAMELSAD20) give the usual identities', async () => {
    const { collection } = await readBoundaryFile(tigerColorado!);
    const { regions, skipped } = regionsFromFeatureCollection(collection, Level.LEVEL_CONGRESSIONAL_DISTRICT);
    expect(skipped).toEqual([]);
    expect(regions.map((r) => r.slug).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `region:co-cd-${n}`));
    expect(regions.find((r) => r.slug === 'region:co-cd-8')).toMatchObject({
      fips: '0808',
      name: 'Colorado Congressional District 8',
      ocdId: 'ocd-division/country:us/state:co/cd:8',
    });
  });

  test('is read quickly (about 1 MB, 64,000 positions, a 13,760-vertex ring)', async ({ annotate }) => {
    await readBoundaryFile(tigerColorado!); // warm up
    const start = performance.now();
    await readBoundaryFile(tigerColorado!);
    await annotate(`read, repaired and checked in ${Math.round(performance.now() - start)} ms`);
  });
});

describe.skipIf(tigerConnecticut === undefined)(
  'a bare TIGER shapefile with a water pseudo-district (Connecticut)',
  () => {
    test('reads all six features, and the identity rules skip 09ZZ with a reason', async () => {
      const { collection, rejected } = await readBoundaryFile(tigerConnecticut!);
      expect(rejected).toEqual([]);
      expect(collection.features.map((f) => f.properties.GEOID20).sort()).toEqual([
        '0901',
        '0902',
        '0903',
        '0904',
        '0905',
        '09ZZ',
      ]);
      const { regions, skipped } = regionsFromFeatureCollection(collection, Level.LEVEL_CONGRESSIONAL_DISTRICT);
      expect(regions.map((r) => r.slug).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `region:ct-cd-${n}`));
      const zz = collection.features.findIndex((f) => f.properties.CD118FP === 'ZZ');
      expect(skipped).toEqual([{ index: zz, reason: 'district ZZ: area with no congressional district' }]);
    });
  },
);

describe.skipIf(vipFeed === undefined)('the VIP Maricopa precincts (a zip in a zip, Arizona State Plane feet)', () => {
  let contents: BoundaryFileContents;
  beforeAll(async () => {
    contents = await readBoundaryFile(vipFeed!);
  });

  test('finds the shapefile in the nested zip, past the __MACOSX entries', () => {
    expect(contents.format).toBe('shapefile');
    expect(contents.layer).toBe('gis_maricopa1103.zip/BallotBoundariesNov2020');
    expect(contents.rejected).toEqual([]);
    expect(contents.collection.features.length).toBeGreaterThan(1000);
  });

  test('reprojects from the .prj into Maricopa County lon/lat', () => {
    expect(contents.crs).toEqual({
      name: 'NAD_1983_HARN_StatePlane_Arizona_Central_FIPS_0202_Feet_Intl',
      reprojected: true,
    });
    const box = bounds(contents.collection.features.map((f) => f.geometry));
    expect(box.minX).toBeGreaterThan(-113.4);
    expect(box.maxX).toBeLessThan(-110.9);
    expect(box.minY).toBeGreaterThan(32.4);
    expect(box.maxY).toBeLessThan(34.1);
  });

  test('puts the Gila Bend precinct (0256) around the town of Gila Bend', () => {
    const gilaBend = contents.collection.features.filter((f) => f.properties.ELECTPCT === '0256');
    expect(gilaBend.length).toBeGreaterThan(0);
    expect(gilaBend.some((f) => containsPoint(prepareGeometry(f.geometry), -112.7168, 32.9478))).toBe(true);
    const box = bounds(gilaBend.map((f) => f.geometry));
    const centroid = [(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2];
    expect(centroid[0]).toBeGreaterThan(-113.3);
    expect(centroid[0]).toBeLessThan(-111.0);
    expect(centroid[1]).toBeGreaterThan(32.5);
    expect(centroid[1]).toBeLessThan(34.1);
  });

  test('puts Wickenburg (0728) around Wickenburg', () => {
    const wickenburg = contents.collection.features.filter((f) => f.properties.ELECTPCT === '0728');
    expect(wickenburg.some((f) => containsPoint(prepareGeometry(f.geometry), -112.7296, 33.9686))).toBe(true);
  });
});
