import { cellToLatLng, getHexagonAreaAvg, getResolution, gridDisk, latLngToCell } from 'h3-js';
import { describe, expect, test } from 'vitest';
import { DistrictIndex } from '../domain/district-index.js';
import { loadUsAtlas } from '../store/us-atlas.js';
import { areaShares, discCells, MIN_SAMPLE_CELLS } from './area-shares.js';
import { distanceMeters } from './centroid-grid.js';
import { EmbeddedGeocoder } from './embedded-geocoder.js';

type Slugged = { slug: string };

/** West and east of a meridian, both inside one state-like region. */
function halfPlanes(splitLng: number) {
  return (_lat: number, lng: number): Slugged[] => [
    { slug: 'region:s' },
    { slug: lng < splitLng ? 'region:west' : 'region:east' },
  ];
}

/** Fraction of a disc beyond a chord at `d` from its centre (the circular segment). */
function segmentFraction(d: number, r: number): number {
  return (r * r * Math.acos(d / r) - d * Math.sqrt(r * r - d * d)) / (Math.PI * r * r);
}

function shareOf(shares: { region: Slugged; share: number }[], slug: string): number | undefined {
  return shares.find((s) => s.region.slug === slug)?.share;
}

describe('areaShares', () => {
  test('splits a disc centred on a boundary about evenly', () => {
    const shares = areaShares({ lat: 39.7, lng: -105 }, 5_000, halfPlanes(-105));
    expect(shares[0]).toEqual({ region: { slug: 'region:s' }, share: 1 });
    expect(shareOf(shares, 'region:west')).toBeCloseTo(0.5, 1);
    expect(shareOf(shares, 'region:east')).toBeCloseTo(0.5, 1);
    expect(shareOf(shares, 'region:west')! + shareOf(shares, 'region:east')!).toBeCloseTo(1, 9);
  });

  test('gives a region cut off by a chord the area of that circular segment', () => {
    const radius = 10_000;
    const centre = { lat: 39.7, lng: -105 };
    const chordLng = -105 + radius / 2 / (111_195 * Math.cos((39.7 * Math.PI) / 180)); // half a radius east
    const shares = areaShares(centre, radius, halfPlanes(chordLng));
    const expected = segmentFraction(distanceMeters(centre, { lat: 39.7, lng: chordLng }), radius); // ≈ 0.196
    expect(Math.abs(shareOf(shares, 'region:east')! - expected)).toBeLessThan(0.03);
    expect(shares.map((s) => s.region.slug)).toEqual(['region:s', 'region:west', 'region:east']);
  });

  test('returns a single region with share 1 when the disc lies inside it', () => {
    expect(areaShares({ lat: 10, lng: 10 }, 2_000, () => [{ slug: 'region:only' }])).toEqual([
      { region: { slug: 'region:only' }, share: 1 },
    ]);
  });

  test('always includes the region at the centre, even when no sample falls inside it', () => {
    const centre = { lat: 40, lng: -100 };
    const pinhole = (lat: number, lng: number) =>
      lat === centre.lat && lng === centre.lng ? [{ slug: 'region:pin' }] : [{ slug: 'region:around' }];
    expect(areaShares(centre, 3_000, pinhole)).toEqual([
      { region: { slug: 'region:around' }, share: 1 },
      { region: { slug: 'region:pin' }, share: 0 },
    ]);
  });

  test('orders equal shares by slug and counts a region once per sample', () => {
    const lookup = () => [{ slug: 'region:b' }, { slug: 'region:a' }, { slug: 'region:b' }];
    expect(areaShares({ lat: 0, lng: 0 }, 1_000, lookup)).toEqual([
      { region: { slug: 'region:a' }, share: 1 },
      { region: { slug: 'region:b' }, share: 1 },
    ]);
  });

  test('returns no region when nothing is found anywhere in the disc', () => {
    expect(areaShares({ lat: 0, lng: -30 }, 5_000, () => [])).toEqual([]);
  });
});

describe('discCells', () => {
  test.each([20, 1_000, 15_000, 60_000])(
    'covers a disc of %i m with at least 200 cells, at the coarsest such resolution',
    (radius) => {
      const centre = { lat: 45, lng: -93 };
      const cells = discCells(centre, radius);
      const res = getResolution(cells[0]!);
      expect(cells.length).toBeGreaterThanOrEqual(MIN_SAMPLE_CELLS);
      expect((Math.PI * radius ** 2) / getHexagonAreaAvg(res - 1, 'm2')).toBeLessThan(MIN_SAMPLE_CELLS * 1.5);
      expect(new Set(cells).size).toBe(cells.length);
      for (const cell of cells) {
        const [lat, lng] = cellToLatLng(cell);
        expect(distanceMeters(centre, { lat, lng })).toBeLessThanOrEqual(radius);
      }
    },
  );

  test('stops at resolution 15 for a disc too small to hold 200 cells', () => {
    const cells = discCells({ lat: 45, lng: -93 }, 5);
    expect(getResolution(cells[0]!)).toBe(15);
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.length).toBeLessThan(MIN_SAMPLE_CELLS);
  });

  test.each([
    ['mid-latitudes', { lat: 45, lng: -93 }],
    ['the antimeridian', { lat: 52, lng: 179.99 }],
    ['the far north', { lat: 71.3, lng: -156.8 }],
  ])('misses no cell centre inside the disc near %s', (_, centre) => {
    const cells = discCells(centre, 3_000);
    const res = getResolution(cells[0]!);
    const brute = gridDisk(latLngToCell(centre.lat, centre.lng, res), 60).filter((c) => {
      const [lat, lng] = cellToLatLng(c);
      return distanceMeters(centre, { lat, lng }) <= 3_000;
    });
    expect(new Set(cells)).toEqual(new Set(brute));
  });

  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses the radius %s', (radius) => {
    expect(() => discCells({ lat: 0, lng: 0 }, radius)).toThrow(RangeError);
  });
});

describe('areaShares over real boundaries', () => {
  test('a city straddling a state line returns both states, each with its share', async () => {
    const index = DistrictIndex.build(loadUsAtlas().filter((r) => r.state === 'tx' || r.state === 'ar'));
    const result = await new EmbeddedGeocoder().geocode('Texarkana, TX');
    const radius = (result.uncertainty as { radiusMeters: number }).radiusMeters;
    const shares = areaShares(result.point, radius, (lat, lng) => index.lookup(lat, lng));
    const tx = shareOf(shares, 'region:tx')!;
    const ar = shareOf(shares, 'region:ar')!;
    expect(tx).toBeGreaterThan(0.3);
    expect(ar).toBeGreaterThan(0.1);
    expect(tx + ar).toBeLessThanOrEqual(1);
    expect(shares.some((s) => s.region.slug === 'region:tx-bowie-county')).toBe(true);
    expect(shares.some((s) => s.region.slug === 'region:ar-miller-county')).toBe(true);
  });
});
