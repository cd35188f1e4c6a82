import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Level } from '../../domain/region.js';
import { regionsFromFeatureCollection } from '../geojson-file.js';
import { BoundaryFileError, readBoundaryFile } from './read-boundary-file.js';
import { sharedData } from '@civicgraph/kit';

const mnPrecincts = sharedData('boundaries/precincts/mn-cd8-precincts.json');
const coHouse = sharedData('boundaries/state-legislative/co/co-state-house-districts-2021.geojson');
const atlas = (name: string) => createRequire(import.meta.url).resolve(`us-atlas/${name}`);

const dir = mkdtempSync(join(tmpdir(), 'boundary-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function temp(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe.skipIf(mnPrecincts === undefined)('the Minnesota CD 8 precincts GeoJSON', () => {
  test('reads as GeoJSON in its default lon/lat, with duplicate vertices repaired and reported', async () => {
    const contents = await readBoundaryFile(mnPrecincts!);
    expect(contents).toMatchObject({ format: 'geojson', layer: undefined, crs: { reprojected: false } });
    expect(contents.collection.features).toHaveLength(837);
    expect(contents.rejected).toEqual([]);
    expect(contents.repaired[0]?.repairs[0]).toMatch(/removed \d+ consecutive duplicate vertex/);
    const { regions } = regionsFromFeatureCollection(contents.collection, Level.LEVEL_PRECINCT, { state: 'mn' });
    expect(regions.find((r) => r.fips === '270010005')?.slug).toBe('region:mn-precinct-270010005');
  });
});

describe.skipIf(coHouse === undefined)('the Colorado House districts GeoJSON', () => {
  test('reads as GeoJSON and yields the 65 districts', async () => {
    const contents = await readBoundaryFile(coHouse!);
    expect(contents.format).toBe('geojson');
    const { regions, skipped } = regionsFromFeatureCollection(
      contents.collection,
      Level.LEVEL_STATE_LEGISLATIVE_LOWER,
      { state: 'co' },
    );
    expect(skipped).toEqual([]);
    expect(regions).toHaveLength(65);
  });
});

describe('TopoJSON', () => {
  test('us-atlas states-10m reads its largest object, the 56 states, with their ids', async () => {
    const contents = await readBoundaryFile(atlas('states-10m.json'));
    expect(contents).toMatchObject({ format: 'topojson', layer: 'states', crs: { reprojected: false } });
    expect(contents.collection.features).toHaveLength(56);
    expect(contents.collection.features.find((f) => f.id === '08')?.properties).toEqual({ name: 'Colorado' });
  });

  test('the object option picks another object; an unknown one is an error listing them', async () => {
    const nation = await readBoundaryFile(atlas('counties-10m.json'), { object: 'nation' });
    expect(nation.collection.features).toHaveLength(1);
    await expect(readBoundaryFile(atlas('counties-10m.json'), { object: 'cities' })).rejects.toThrow(
      /no TopoJSON object named cities; it has counties, states, nation/,
    );
  });

  test('us-atlas counties-10m defaults to counties, rejecting the few simplified rings that cross themselves', async () => {
    const contents = await readBoundaryFile(atlas('counties-10m.json'));
    expect(contents.layer).toBe('counties');
    expect(contents.collection.features.length + contents.rejected.length).toBe(3231);
    expect(contents.rejected.length).toBeLessThan(10);
    expect(contents.rejected.map((r) => r.reason)).toContain(
      'self-intersecting ring (outer ring): edges 11 and 13 cross at [-121.471597, 37.48241592]',
    );
  });

  test('a projected topology (us-atlas states-albers-10m) is refused as not lon/lat', async () => {
    await expect(readBoundaryFile(atlas('states-albers-10m.json'))).rejects.toThrow(
      /coordinates are not longitude\/latitude/,
    );
  });
});

const square = (x: number, y: number, size: number) => [
  [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ],
];
const withCrs = (crs: unknown, coordinates: unknown) => ({
  type: 'FeatureCollection',
  crs,
  features: [{ type: 'Feature', properties: { NAME: 'A' }, geometry: { type: 'Polygon', coordinates } }],
});

describe('GeoJSON with a legacy crs member', () => {
  test('NAD83 and CRS84 names are read as is', async () => {
    const nad83 = await readBoundaryFile(
      temp(
        'nad83.geojson',
        withCrs({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4269' } }, square(-105, 39, 1)),
      ),
    );
    expect(nad83.crs).toEqual({ name: 'EPSG:4269', reprojected: false });
    const crs84 = await readBoundaryFile(
      temp(
        'crs84.geojson',
        withCrs({ type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } }, square(-105, 39, 1)),
      ),
    );
    expect(crs84.crs.reprojected).toBe(false);
  });

  test('web mercator (EPSG:3857, which proj4 knows) is reprojected', async () => {
    const contents = await readBoundaryFile(
      temp(
        'mercator.geojson',
        withCrs({ type: 'name', properties: { name: 'EPSG:3857' } }, square(-11688546.53, 4865942.28, 1000)),
      ),
    );
    expect(contents.crs).toEqual({ name: 'EPSG:3857', reprojected: true });
    const [lon, lat] = contents.collection.features[0]!.geometry.coordinates[0]![0]! as number[];
    expect(lon).toBeCloseTo(-105, 5);
    expect(lat).toBeCloseTo(40, 5);
  });

  test('an EPSG code proj4 does not know is refused, naming the code', async () => {
    const path = temp(
      'stateplane.geojson',
      withCrs({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2868' } }, square(700000, 1000000, 1000)),
    );
    const err = await readBoundaryFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BoundaryFileError);
    expect((err as BoundaryFileError).message).toMatch(/unknown or unsupported coordinate reference system: EPSG:2868/);
  });

  test('projected coordinates without a crs member are refused as not lon/lat', async () => {
    await expect(
      readBoundaryFile(temp('no-crs.geojson', withCrs(undefined, square(700000, 1000000, 1000)))),
    ).rejects.toThrow(/coordinates are not longitude\/latitude but the file declares WGS 84/);
  });
});
