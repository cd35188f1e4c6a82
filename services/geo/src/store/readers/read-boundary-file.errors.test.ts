import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, test } from 'vitest';
import { InvalidParameterError } from '@civicgraph/kit';
import { Level } from '../../domain/region.js';
import { regionsFromFeatureCollection } from '../geojson-file.js';
import { BoundaryFileError, readBoundaryFile } from './read-boundary-file.js';
import { writePolygonShapefile } from './shapefile-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'boundary-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh folder per case, so sibling lookups never see another case's files. */
const freshDir = () => mkdtempSync(join(root, 'case-'));

function write(name: string, content: string | Uint8Array): string {
  const path = join(freshDir(), name);
  writeFileSync(path, content);
  return path;
}

/** The error `readBoundaryFile` rejects with; fails the test when it resolves. */
async function failure(path: string, options = {}): Promise<BoundaryFileError> {
  const err = await readBoundaryFile(path, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BoundaryFileError);
  return err as BoundaryFileError;
}

// Clockwise (a shapefile outer ring) around Denver, and the same in Arizona State Plane feet.
const lonLatSquare = [
  [-105, 39],
  [-105, 40],
  [-104, 40],
  [-104, 39],
  [-105, 39],
];
const feetSquare = [
  [700000, 900000],
  [700000, 901000],
  [701000, 901000],
  [701000, 900000],
  [700000, 900000],
];
const shapefileBytes = () => readFileSync(writePolygonShapefile(freshDir(), 'square', [lonLatSquare]));
const NAD83 =
  'GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';
const AZ_CENTRAL_FEET =
  'PROJCS["NAD_1983_HARN_StatePlane_Arizona_Central_FIPS_0202_Feet_Intl",GEOGCS["GCS_North_American_1983_HARN",DATUM["D_North_American_1983_HARN",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",700000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-111.9166666666667],PARAMETER["Scale_Factor",0.9999],PARAMETER["Latitude_Of_Origin",31.0],UNIT["Foot",0.3048]]';

describe('files that are not what their extension says, or nothing readable', () => {
  test('a .geojson holding a shapefile is refused, saying what was expected and found', async () => {
    const err = await failure(write('districts.geojson', shapefileBytes()));
    expect(err.message).toMatch(
      /districts\.geojson: the extension \.geojson says GeoJSON, but the content is a shapefile \(\.shp\)$/,
    );
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err).toMatchObject({ field: 'file', type: 'invalid_parameter', status: 400 });
    expect(err.path).toMatch(/districts\.geojson$/);
  });

  test('a .shp holding JSON is refused', async () => {
    const err = await failure(write('districts.shp', '{"type":"FeatureCollection","features":[]}'));
    expect(err.message).toMatch(/the extension \.shp says a shapefile \(\.shp\), but the content is JSON$/);
  });

  test('a .zip holding GeoJSON, and a .geojson holding TopoJSON, are refused', async () => {
    expect((await failure(write('a.zip', '{"type":"FeatureCollection","features":[]}'))).message).toMatch(
      /says a zip archive holding a shapefile, but the content is JSON/,
    );
    expect((await failure(write('a.geojson', '{"type":"Topology","objects":{}}'))).message).toMatch(
      /says GeoJSON, but the content is TopoJSON/,
    );
  });

  test('an empty file is refused', async () => {
    expect((await failure(write('empty.geojson', ''))).message).toMatch(/expected GeoJSON, found an empty file$/);
  });

  test('ten bytes of garbage are refused', async () => {
    const err = await failure(write('garbage.shp', Uint8Array.from([0, 1, 0xfe, 0xff, 7, 8, 9, 0x80, 0x81, 0x82])));
    expect(err.message).toMatch(
      /expected a shapefile \(\.shp\), found 10 bytes of unrecognised binary data \(beginning 00 01 fe ff 07 08 09 80\)$/,
    );
  });

  test('text without a known extension is refused, quoting its beginning', async () => {
    expect((await failure(write('notes', 'precinct,name\n1,North'))).message).toMatch(
      /expected GeoJSON, TopoJSON, a shapefile or a zip of one, found text beginning "precinct,name\\n1,"$/,
    );
  });

  test('JSON that is neither a FeatureCollection nor a Topology, and malformed JSON, are refused', async () => {
    expect((await failure(write('one.geojson', '{"type":"Feature","geometry":null}'))).message).toMatch(
      /expected a GeoJSON FeatureCollection or a TopoJSON Topology, found JSON of type "Feature"/,
    );
    expect((await failure(write('cut.json', '{"type":"FeatureCollection","feat'))).message).toMatch(/malformed JSON: /);
  });

  test('a missing file is refused', async () => {
    expect((await failure(join(root, 'nowhere.geojson'))).message).toMatch(/cannot read the file: ENOENT/);
  });
});

describe('zips', () => {
  const zip = (entries: Record<string, Uint8Array | string>) =>
    zipSync(
      Object.fromEntries(
        Object.entries(entries).map(([k, v]) => [k, typeof v === 'string' ? new TextEncoder().encode(v) : v]),
      ),
    );

  test('a zip without a .shp is refused, listing what it holds (macOS junk left out)', async () => {
    const err = await failure(
      write('data.zip', zip({ 'readme.txt': 'hello', '__MACOSX/._readme.txt': 'junk', 'data/table.csv': 'a,b' })),
    );
    expect(err.message).toMatch(/the zip holds no shapefile \(\.shp\); it holds readme\.txt, data\/table\.csv$/);
  });

  test('a zipped .shp without its .dbf is refused, naming the .dbf', async () => {
    const err = await failure(
      write('data.zip', zip({ 'folder/Square.SHP': shapefileBytes(), 'folder/Square.prj': NAD83 })),
    );
    expect(err.message).toMatch(/folder\/Square\.SHP has no Square\.dbf beside it/);
  });

  test('siblings match case-insensitively, and several shapefiles need the layer option', async () => {
    const dir = freshDir();
    writePolygonShapefile(dir, 'a', [lonLatSquare], { names: ['from a'] });
    const parts = (name: string) => ({
      [`${name}.shp`]: readFileSync(join(dir, 'a.shp')),
      [`${name}.DBF`]: readFileSync(join(dir, 'a.dbf')),
      [`${name}.Prj`]: NAD83,
    });
    const path = write('two.zip', zip({ ...parts('north'), ...parts('south') }));
    expect((await failure(path)).message).toMatch(
      /the zip holds 2 shapefiles \(north, south\); choose one with the layer option/,
    );
    const south = await readBoundaryFile(path, { layer: 'south' });
    expect(south).toMatchObject({ layer: 'south', crs: { name: 'GCS_North_American_1983', reprojected: false } });
    expect(south.collection.features[0]?.properties).toEqual({ NAME: 'from a' });
  });
});

describe('shapefiles on disk and their coordinate reference systems', () => {
  test('a .shp without its .dbf is refused, naming the .dbf', async () => {
    const path = writePolygonShapefile(freshDir(), 'square', [lonLatSquare], { dbf: false });
    expect((await failure(path)).message).toMatch(/square\.shp: no square\.dbf beside it/);
  });

  test('without a .prj, lon/lat coordinates are taken as NAD83', async () => {
    const contents = await readBoundaryFile(writePolygonShapefile(freshDir(), 'square', [lonLatSquare]));
    expect(contents.crs).toEqual({ name: 'NAD83 lon/lat (assumed: no .prj)', reprojected: false });
    expect(contents.collection.features[0]?.properties).toEqual({ NAME: 'shape 1' });
  });

  test('without a .prj, projected coordinates are refused', async () => {
    const err = await failure(writePolygonShapefile(freshDir(), 'square', [feetSquare]));
    expect(err.message).toMatch(
      /square has no \.prj and coordinates are not longitude\/latitude \(bounding box 700000, 900000, 701000, 901000\)/,
    );
  });

  test('a projected .prj is reprojected', async () => {
    const path = writePolygonShapefile(freshDir(), 'square', [feetSquare]);
    writeFileSync(path.replace(/shp$/, 'prj'), AZ_CENTRAL_FEET);
    const contents = await readBoundaryFile(path);
    expect(contents.crs.reprojected).toBe(true);
    const [lon, lat] = contents.collection.features[0]!.geometry.coordinates[0]![0]! as number[];
    expect(lon).toBeCloseTo(-111.9167, 3); // on the central meridian (the false easting)
    expect(lat).toBeCloseTo(33.474, 3); // 900,000 ft north of the 31° origin
  });

  test('a projected .prj proj4 cannot parse is refused, naming the CRS', async () => {
    const path = writePolygonShapefile(freshDir(), 'square', [feetSquare]);
    writeFileSync(
      path.replace(/shp$/, 'prj'),
      AZ_CENTRAL_FEET.replace('NAD_1983_HARN_StatePlane_Arizona_Central_FIPS_0202_Feet_Intl', 'Custom_Grid').replace(
        'Transverse_Mercator',
        'Bogus_Projection',
      ),
    );
    const err = await failure(path);
    expect(err.message).toMatch(
      /unknown or unsupported coordinate reference system: Custom_Grid \(proj4 cannot parse its definition\)$/,
    );
    expect(err.cause).toMatch(/Could not get projection name/);
  });

  test('a datum proj4 cannot shift (NAD27) is refused rather than read hundreds of metres off', async () => {
    const path = writePolygonShapefile(freshDir(), 'square', [lonLatSquare]);
    writeFileSync(
      path.replace(/shp$/, 'prj'),
      'GEOGCS["GCS_North_American_1927",DATUM["D_North_American_1927",SPHEROID["Clarke_1866",6378206.4,294.9786982]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]',
    );
    expect((await failure(path)).message).toMatch(
      /unknown or unsupported coordinate reference system: GCS_North_American_1927 \(its datum is not NAD83 or WGS84/,
    );
  });
});

describe('bad features in a good file', () => {
  const feature = (NAME: string, geometry: unknown) => ({ type: 'Feature', properties: { NAME }, geometry });
  const bowtie = {
    type: 'Polygon',
    coordinates: [
      [
        [-105, 39],
        [-104, 40],
        [-104, 39],
        [-105, 40],
        [-105, 39],
      ],
    ],
  };
  const good = {
    type: 'Polygon',
    coordinates: [
      [
        [-105, 39],
        [-104, 39],
        [-104, 40],
        [-105, 40],
        [-105, 39],
      ],
    ],
  };
  const unclosed = {
    type: 'Polygon',
    coordinates: [
      [
        [-103, 39],
        [-102, 39],
        [-102, 40],
        [-103, 40],
      ],
    ],
  };
  const collectionWithPolygon = {
    type: 'GeometryCollection',
    geometries: [
      { type: 'Point', coordinates: [-101, 39] },
      {
        type: 'Polygon',
        coordinates: [
          [
            [-101, 39],
            [-100, 39],
            [-100, 40],
            [-101, 39],
          ],
        ],
      },
    ],
  };
  const collectionOfLines = {
    type: 'GeometryCollection',
    geometries: [
      {
        type: 'LineString',
        coordinates: [
          [-99, 39],
          [-98, 40],
        ],
      },
    ],
  };
  const path = () =>
    write(
      'mixed.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          feature('bowtie', bowtie),
          feature('lines', collectionOfLines),
          feature('null', null),
          feature('good', good),
          feature('unclosed', unclosed),
          feature('collection', collectionWithPolygon),
        ],
      }),
    );

  test('are rejected with reasons while the rest import, repaired where they can be', async () => {
    const contents = await readBoundaryFile(path());
    expect(contents.rejected).toEqual([
      {
        index: 0,
        code: 'self_intersecting',
        reason: 'self-intersecting ring (outer ring): edges 0 and 2 cross at [-104.5, 39.5]',
      },
      { index: 1, code: 'not_polygonal', reason: 'GeometryCollection holds no polygons (only 1 LineString)' },
      { index: 2, code: 'no_geometry', reason: 'no geometry (null)' },
    ]);
    expect(contents.collection.features.map((f) => f.properties.NAME)).toEqual(['good', 'unclosed', 'collection']);
    expect(contents.sourceIndex).toEqual([3, 4, 5]);
    expect(contents.repaired).toEqual([
      { index: 4, repairs: ['closed 1 unclosed ring(s)'] },
      { index: 5, repairs: ['flattened a GeometryCollection to 1 polygon(s), ignoring 1 Point'] },
    ]);
  });

  test('the repaired features become regions', async () => {
    const { collection } = await readBoundaryFile(path());
    const { regions, skipped } = regionsFromFeatureCollection(collection, Level.LEVEL_PLACE, { state: 'co' });
    expect(skipped).toEqual([]);
    expect(regions.map((r) => r.slug)).toEqual(['region:co-good', 'region:co-unclosed', 'region:co-collection']);
  });
});

describe('a feature whose coordinates nest without end', () => {
  test('is rejected with a reason, not a stack overflow, and the rest of the file is read', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const good = {
      type: 'Feature',
      properties: { GEOID: '0802' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-105, 39],
            [-104, 39],
            [-104, 40],
            [-105, 39],
          ],
        ],
      },
    };
    const path = write(
      'deep.geojson',
      `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"GEOID":"0801"},"geometry":{"type":"Polygon","coordinates":${deep}}},${JSON.stringify(good)}]}`,
    );
    const contents = await readBoundaryFile(path);
    expect(contents.collection.features).toHaveLength(1);
    expect(contents.rejected).toEqual([
      expect.objectContaining({
        index: 0,
        code: 'malformed_geometry',
        reason: expect.stringContaining('nested too deeply'),
      }),
    ]);
  });
});
