import { describe, expect, test } from 'vitest';
import { Level, type RegionRecord } from '../domain/region.js';
import { loadGeoJsonFile, regionsFromFeatureCollection } from './geojson-file.js';
import { sharedData } from '@civicgraph/kit';

const square = [
  [
    [-105, 39],
    [-104, 39],
    [-104, 40],
    [-105, 40],
    [-105, 39],
  ],
];
const feature = (
  properties: Record<string, unknown>,
  geometry: unknown = { type: 'Polygon', coordinates: square },
) => ({ type: 'Feature', properties, geometry });
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });
const identity = ({ geometry: _g, ...rest }: RegionRecord) => rest;

describe('regionsFromFeatureCollection', () => {
  test('congressional districts follow the Census codes: numbered, at large, delegate, and ZZ skipped', () => {
    const { regions, skipped } = regionsFromFeatureCollection(
      collection(
        feature({ STATEFP: '08', CD119FP: '01', GEOID: '0801', NAMELSAD: 'Congressional District 1' }),
        feature({ STATEFP: '02', CD119FP: '00', GEOID: '0200', NAMELSAD: 'Congressional District (at Large)' }),
        feature({ STATEFP: '11', CD118FP: '98', GEOID: '1198' }),
        feature({ STATEFP: '09', CD118FP: 'ZZ', GEOID: '09ZZ' }),
      ),
      Level.LEVEL_CONGRESSIONAL_DISTRICT,
    );
    expect(regions.map(identity)).toEqual([
      {
        slug: 'region:co-cd-1',
        name: 'Colorado Congressional District 1',
        level: 4,
        fips: '0801',
        ocdId: 'ocd-division/country:us/state:co/cd:1',
        state: 'co',
      },
      {
        slug: 'region:ak-cd-at-large',
        name: 'Alaska Congressional District (at Large)',
        level: 4,
        fips: '0200',
        ocdId: 'ocd-division/country:us/state:ak/cd:at-large',
        state: 'ak',
      },
      {
        slug: 'region:dc-cd-delegate',
        name: 'District of Columbia Delegate District (at Large)',
        level: 4,
        fips: '1198',
        ocdId: 'ocd-division/country:us/district:dc/cd:at-large',
        state: 'dc',
      },
    ]);
    expect(skipped).toEqual([{ index: 3, reason: 'district ZZ: area with no congressional district' }]);
  });

  test('legislative districts without a state take it from the option', () => {
    const fc = collection(feature({ District: 7, OBJECTID: 3 }));
    const upper = regionsFromFeatureCollection(fc, Level.LEVEL_STATE_LEGISLATIVE_UPPER, { state: 'co' }).regions[0]!;
    expect(identity(upper)).toEqual({
      slug: 'region:co-sldu-7',
      name: 'Colorado State Senate District 7',
      level: 5,
      fips: '08007',
      ocdId: 'ocd-division/country:us/state:co/sldu:7',
      state: 'co',
    });
    const lower = regionsFromFeatureCollection(
      collection(feature({ SLDLST: '015', STATEFP: '08' })),
      Level.LEVEL_STATE_LEGISLATIVE_LOWER,
    ).regions[0]!;
    expect(lower.slug).toBe('region:co-sldl-15');
    expect(lower.ocdId).toBe('ocd-division/country:us/state:co/sldl:15');
    expect(regionsFromFeatureCollection(fc, Level.LEVEL_STATE_LEGISLATIVE_UPPER).rejected[0]).toMatchObject({
      code: 'no_state',
      reason: expect.stringMatching(/no state/),
    });
  });

  test('a feature naming a state other than the option is rejected, not moved to that state', () => {
    const fc = collection(feature({ SLDLST: '015', STATEFP: '08' }), feature({ SLDLST: '002', STATEFP: '56' }));
    const { regions, rejected } = regionsFromFeatureCollection(fc, Level.LEVEL_STATE_LEGISLATIVE_LOWER, {
      state: 'co',
    });
    expect(regions.map((r) => r.slug)).toEqual(['region:co-sldl-15']);
    expect(rejected).toEqual([
      { index: 1, code: 'other_state', reason: 'the feature is in WY, not in CO (the state option)' },
    ]);
  });

  test('features without usable geometry are rejected with a code and a reason', () => {
    const { regions, skipped, rejected } = regionsFromFeatureCollection(
      collection(
        feature({ District: 1 }, null),
        feature({ District: 2 }, { type: 'Polygon', coordinates: [] }),
        feature({ District: 3 }, { type: 'Point', coordinates: [-105, 39] }),
        feature(
          { District: 4 },
          {
            type: 'Polygon',
            coordinates: [
              [
                [500000, 4400000],
                [500100, 4400000],
                [500100, 4400100],
                [500000, 4400000],
              ],
            ],
          },
        ),
        feature({ District: 5 }),
      ),
      Level.LEVEL_STATE_LEGISLATIVE_LOWER,
      { state: 'co' },
    );
    expect(regions.map((r) => r.slug)).toEqual(['region:co-sldl-5']);
    expect(skipped).toEqual([]);
    expect(rejected.map((s) => [s.index, s.code])).toEqual([
      [0, 'no_geometry'],
      [1, 'degenerate_geometry'],
      [2, 'not_polygonal'],
      [3, 'not_lon_lat'],
    ]);
    expect(rejected[0]?.reason).toBe('no geometry');
    expect(rejected[1]?.reason).toBe('empty geometry');
    expect(rejected[2]?.reason).toMatch(/not polygonal/);
    expect(rejected[3]?.reason).toMatch(/projected/);
  });

  test('a GeometryCollection contributes its polygons, and features sharing a slug merge', () => {
    const other = [
      [
        [-104, 39],
        [-103, 39],
        [-103, 40],
        [-104, 39],
      ],
    ];
    const { regions } = regionsFromFeatureCollection(
      collection(
        feature(
          { District: 1 },
          {
            type: 'GeometryCollection',
            geometries: [
              { type: 'Polygon', coordinates: square },
              { type: 'LineString', coordinates: [] },
            ],
          },
        ),
        feature({ District: 1 }, { type: 'Polygon', coordinates: other }),
      ),
      Level.LEVEL_STATE_LEGISLATIVE_UPPER,
      { state: 'co' },
    );
    expect(regions).toHaveLength(1);
    expect(regions[0]!.geometry).toEqual({ type: 'MultiPolygon', coordinates: [square, other] });
  });

  test('other levels use GEOID and NAME, and counties their Census name', () => {
    const place = regionsFromFeatureCollection(
      collection(feature({ STATEFP: '08', GEOID: '0820000', NAME: 'Denver', NAMELSAD: 'Denver city' })),
      Level.LEVEL_PLACE,
    ).regions[0]!;
    expect(identity(place)).toEqual({
      slug: 'region:co-denver-city',
      name: 'Denver city',
      level: 7,
      fips: '0820000',
      ocdId: 'ocd-division/country:us/state:co/place:denver',
      state: 'co',
    });
    const county = regionsFromFeatureCollection(
      collection(feature({ STATEFP: '22', COUNTYFP: '071', NAME: 'Orleans' })),
      Level.LEVEL_COUNTY,
    ).regions[0]!;
    expect(identity(county)).toMatchObject({
      slug: 'region:la-orleans-parish',
      fips: '22071',
      ocdId: 'ocd-division/country:us/state:la/parish:orleans',
    });
  });

  test('input that is not a FeatureCollection is refused', () => {
    expect(() => regionsFromFeatureCollection({ type: 'Feature' }, Level.LEVEL_PLACE)).toThrow(/FeatureCollection/);
  });
});

const cd119 = sharedData('boundaries/congressional/us-cd119-20m.geojson');
const coSenate = sharedData('boundaries/state-legislative/co/co-state-senate-districts-2021.geojson');
const coHouse = sharedData('boundaries/state-legislative/co/co-state-house-districts-2021.geojson');

describe.skipIf(cd119 === undefined)('the 119th Congress file', () => {
  test('yields 435 districts plus the DC and Puerto Rico delegates', () => {
    const { regions, skipped } = loadGeoJsonFile(cd119!, Level.LEVEL_CONGRESSIONAL_DISTRICT);
    expect(skipped).toEqual([]);
    expect(regions).toHaveLength(437);
    const slugs = new Set(regions.map((r) => r.slug));
    expect(slugs.size).toBe(437);
    for (const s of [
      'region:co-cd-8',
      'region:wy-cd-at-large',
      'region:dc-cd-delegate',
      'region:pr-cd-delegate',
      'region:ca-cd-52',
    ])
      expect(slugs).toContain(s);
  });
});

describe.skipIf(coSenate === undefined || coHouse === undefined)('the Colorado legislative files', () => {
  test('yield 35 senate and 65 house districts with Colorado slugs and OCD ids', () => {
    const senate = loadGeoJsonFile(coSenate!, Level.LEVEL_STATE_LEGISLATIVE_UPPER, { state: 'co' });
    const house = loadGeoJsonFile(coHouse!, Level.LEVEL_STATE_LEGISLATIVE_LOWER, { state: 'co' });
    expect([senate.regions.length, house.regions.length, senate.skipped.length, house.skipped.length]).toEqual([
      35, 65, 0, 0,
    ]);
    expect(senate.regions.map((r) => r.slug)).toContain('region:co-sldu-35');
    expect(house.regions.find((r) => r.slug === 'region:co-sldl-15')?.ocdId).toBe(
      'ocd-division/country:us/state:co/sldl:15',
    );
  });
});
