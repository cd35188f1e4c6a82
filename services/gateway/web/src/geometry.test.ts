import { geoArea } from 'd3-geo';
import type { Feature, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { rewind } from './geometry.js';

/** A 1° square around Denver, its exterior ring counter-clockwise as RFC 7946 (and the API) write it. */
const RFC7946: Feature<Polygon> = {
  type: 'Feature',
  properties: {},
  geometry: {
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
  },
};

describe('outlines as d3-geo reads them', () => {
  it('turns an RFC 7946 ring, which d3-geo reads as the whole globe but the district, into the district', () => {
    expect(geoArea(RFC7946)).toBeGreaterThan(2 * Math.PI);
    const fixed = rewind(RFC7946);
    expect(geoArea(fixed)).toBeLessThan(0.001);
    expect(geoArea(fixed)).toBeGreaterThan(0);
  });

  it('leaves a ring already wound the other way, and each polygon of a multipolygon, as they should be', () => {
    const fixed = rewind(RFC7946);
    expect(rewind(fixed)).toEqual(fixed);
    const multi = rewind({
      ...RFC7946,
      geometry: { type: 'MultiPolygon', coordinates: [RFC7946.geometry.coordinates, fixed.geometry.coordinates] },
    });
    expect(geoArea(multi)).toBeCloseTo(2 * geoArea(fixed), 10);
  });
});
