import { describe, expect, it } from 'vitest';
import { DistrictIndex } from './district-index.js';
import { Level, type RegionGeometry, type RegionRecord } from './region.js';

const region = (slug: string, geometry: RegionGeometry): RegionRecord => ({
  slug,
  name: slug,
  level: Level.LEVEL_COUNTY,
  fips: '',
  ocdId: '',
  state: 'co',
  geometry,
  source: { name: 'f.geojson', scale: 0 },
});

describe('the regions an index holds', () => {
  it("give back their outlines as GeoJSON from the index's arrays: the same polygons, holes and type", () => {
    const withHole: RegionGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [0, 4],
          [0, 0],
        ],
        [
          [1, 1],
          [1, 2],
          [2, 2],
          [2, 1],
          [1, 1],
        ],
      ],
    };
    const multi: RegionGeometry = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [10, 0],
            [11, 0],
            [11, 1],
            [10, 0],
          ],
        ],
        [
          [
            [12, 0],
            [13, 0],
            [13, 1],
            [12, 0],
          ],
        ],
      ],
    };
    const oneOfMulti: RegionGeometry = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [20, 0],
            [21, 0],
            [21, 1],
            [20, 0],
          ],
        ],
      ],
    };
    const index = DistrictIndex.build([
      region('region:a', withHole),
      region('region:b', multi),
      region('region:c', oneOfMulti),
    ]);
    const bySlug = new Map(index.regions.map((r) => [r.slug, r]));
    expect(bySlug.get('region:a')!.geometry).toEqual(withHole);
    expect(bySlug.get('region:b')!.geometry).toEqual(multi);
    expect(bySlug.get('region:c')!.geometry).toEqual(oneOfMulti);
    expect(bySlug.get('region:a')).toMatchObject({
      slug: 'region:a',
      level: Level.LEVEL_COUNTY,
      state: 'co',
      source: { name: 'f.geojson', scale: 0 },
    });
  });

  it('close a ring the source left open', () => {
    const open: RegionGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      ],
    };
    const [r] = DistrictIndex.build([region('region:open', open)]).regions;
    expect(r!.geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
  });
});
