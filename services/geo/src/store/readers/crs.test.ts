import { describe, expect, test } from 'vitest';
import { crsFromGeoJsonMember, crsFromPrj, isLonLat } from './crs.js';
import { BoundaryFileError } from './errors.js';

const NAD83 =
  'GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';
const WGS84_OGC =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]';
const UTM13 =
  'PROJCS["NAD_1983_UTM_Zone_13N",GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-105.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
const WEB_MERCATOR_ESRI =
  'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]';

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(BoundaryFileError);
    return (err as Error).message;
  }
  throw new Error('expected a BoundaryFileError');
}

describe('crsFromPrj', () => {
  test('reads NAD83 and WGS84 geographic WKT (ESRI and OGC) as lon/lat, without reprojection', () => {
    expect(crsFromPrj(NAD83, 'x.prj')).toEqual({ name: 'GCS_North_American_1983' });
    expect(crsFromPrj(WGS84_OGC, 'x.prj')).toEqual({ name: 'WGS 84' });
  });

  test('reprojects projected WKT: UTM 13N and ESRI web mercator', () => {
    const utm = crsFromPrj(UTM13, 'x.prj');
    expect(utm.name).toBe('NAD_1983_UTM_Zone_13N');
    const [lon, lat] = utm.toLonLat!([500000, 4428236]);
    expect(lon).toBeCloseTo(-105, 6);
    expect(lat).toBeCloseTo(40.0043, 4);
    const [mLon, mLat] = crsFromPrj(WEB_MERCATOR_ESRI, 'x.prj').toLonLat!([-11688546.53, 4865942.28]);
    expect(mLon).toBeCloseTo(-105, 5);
    expect(mLat).toBeCloseTo(40, 5);
  });

  test('refuses what proj4 cannot parse, what is not WKT, and compound or local systems', () => {
    expect(
      refusal(() =>
        crsFromPrj(UTM13.replace('Transverse_Mercator', 'Bogus').replace('NAD_1983_UTM_Zone_13N', 'Odd'), 'a.shp'),
      ),
    ).toBe('a.shp: unknown or unsupported coordinate reference system: Odd (proj4 cannot parse its definition)');
    expect(refusal(() => crsFromPrj('+proj=longlat', 'a.shp'))).toMatch(/"\+proj=longlat" \(the \.prj is not WKT\)/);
    expect(refusal(() => crsFromPrj('LOCAL_CS["site grid",LOCAL_DATUM["x",0],UNIT["m",1]]', 'a.shp'))).toMatch(
      /site grid \(LOCAL_CS is neither geographic nor projected\)/,
    );
  });

  test('refuses datums proj4 would leave unshifted (NAD27 on Clarke 1866)', () => {
    const nad27 =
      'GEOGCS["GCS_North_American_1927",DATUM["D_North_American_1927",SPHEROID["Clarke_1866",6378206.4,294.9786982]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';
    expect(refusal(() => crsFromPrj(nad27, 'a.shp'))).toMatch(
      /GCS_North_American_1927 \(its datum is not NAD83 or WGS84/,
    );
  });
});

describe('crsFromGeoJsonMember', () => {
  test('no member means RFC 7946 lon/lat', () => {
    expect(crsFromGeoJsonMember(undefined, 'x').toLonLat).toBeUndefined();
    expect(crsFromGeoJsonMember(null, 'x').toLonLat).toBeUndefined();
  });

  test.each([
    'EPSG:4326',
    'urn:ogc:def:crs:EPSG::4269',
    'urn:ogc:def:crs:EPSG:6.6:4326',
    'http://www.opengis.net/def/crs/EPSG/0/4269',
    'urn:ogc:def:crs:OGC:1.3:CRS84',
  ])('reads %s as lon/lat', (name) => {
    expect(crsFromGeoJsonMember({ type: 'name', properties: { name } }, 'x').toLonLat).toBeUndefined();
  });

  test('reads the 2008 EPSG form', () => {
    expect(crsFromGeoJsonMember({ type: 'EPSG', properties: { code: 4269 } }, 'x')).toEqual({ name: 'EPSG:4269' });
  });

  test('reprojects codes proj4 knows and refuses the rest by name', () => {
    expect(crsFromGeoJsonMember({ type: 'name', properties: { name: 'EPSG:3857' } }, 'x').toLonLat).toBeDefined();
    expect(refusal(() => crsFromGeoJsonMember({ type: 'name', properties: { name: 'EPSG:26913' } }, 'x'))).toMatch(
      /unsupported coordinate reference system: EPSG:26913 \(proj4 has no definition/,
    );
    expect(refusal(() => crsFromGeoJsonMember({ type: 'name', properties: { name: 'local grid' } }, 'x'))).toMatch(
      /local grid \(not an EPSG code or CRS84\)/,
    );
    expect(refusal(() => crsFromGeoJsonMember({ type: 'link', properties: { href: 'x.prj' } }, 'x'))).toMatch(
      /neither of type "name" nor "EPSG"/,
    );
  });
});

test('isLonLat takes finite pairs inside [-180, 180] × [-90, 90]', () => {
  expect(
    [
      [-180, 90],
      [0, 0],
      [180, -90],
    ].every(isLonLat),
  ).toBe(true);
  expect([[181, 0], [0, -91], [Number.NaN, 0], [0]].some(isLonLat)).toBe(false);
});
