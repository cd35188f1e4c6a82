import { InvalidParameterError, NotFoundError } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import { EmbeddedGeocoder } from './embedded-geocoder.js';
import { isAmbiguous } from './geocoder.js';
import { describeGeocoderContract } from './geocoder.contract.js';
import { ZIP_RADIUS_MAX, ZIP_RADIUS_MIN } from './zip-registry.js';

const geocoder = new EmbeddedGeocoder();

async function failure(address: string): Promise<Error> {
  return geocoder.geocode(address).then(
    () => expect.fail(`expected ${JSON.stringify(address)} to fail`),
    (err: Error) => err,
  );
}

describeGeocoderContract('embedded', { geocoder: () => geocoder, known: '80202' });

describe('EmbeddedGeocoder', () => {
  test('returns coordinates as given, exact and unambiguous', async () => {
    const result = await geocoder.geocode(' 39.7392 , -104.9903 ');
    expect(result).toEqual({
      point: { lat: 39.7392, lng: -104.9903 },
      precision: 'coordinates',
      source: 'embedded:coordinates',
      matched: '39.7392,-104.9903',
    });
    expect(isAmbiguous(result)).toBe(false);
  });

  test('places a street address at its ZIP, as ambiguous, saying the street was not placed', async () => {
    const result = await geocoder.geocode('1437 Bannock St, Denver, CO 80202');
    expect(result).toEqual({
      ...(await geocoder.geocode('80202')),
      matched: "80202 (Denver, CO): the address's ZIP code (this geocoder does not place streets)",
    });
    expect(isAmbiguous(result)).toBe(true);
  });

  test('places a street address without a ZIP at its city', async () => {
    const result = await geocoder.geocode('915 10th St, Greeley, CO');
    expect(result).toMatchObject({
      precision: 'city',
      matched: "Greeley, CO: the address's city (this geocoder does not place streets)",
    });
    expect(result.point).toEqual((await geocoder.geocode('Greeley, CO')).point);
  });

  test('places a ZIP at its registry centroid with an uncertainty radius, as ambiguous', async () => {
    const result = await geocoder.geocode('80202');
    expect(result).toEqual({
      point: { lat: 39.7491, lng: -104.9946 },
      precision: 'zip',
      source: 'embedded:zipcodes',
      uncertainty: { radiusMeters: ZIP_RADIUS_MIN }, // downtown Denver: neighbours within 250 m
      matched: '80202 (Denver, CO)',
    });
    expect(isAmbiguous(result)).toBe(true);
  });

  test('reads ZIP+4 as its 5-digit ZIP', async () => {
    expect(await geocoder.geocode('80202-1234')).toEqual(await geocoder.geocode('80202'));
  });

  test('gives a remote rural ZIP the largest radius', async () => {
    const result = await geocoder.geocode('89049'); // Tonopah, NV: nearest other ZIP about 40 km away
    expect(result.uncertainty).toEqual({ radiusMeters: ZIP_RADIUS_MAX });
  });

  test('places a city at the centre of its ZIPs with a radius reaching all of them', async () => {
    const result = await geocoder.geocode('denver, co');
    expect(result.precision).toBe('city');
    expect(result.matched).toBe('Denver, CO');
    expect(result.point.lat).toBeCloseTo(39.74, 1);
    expect(result.point.lng).toBeCloseTo(-104.9, 0);
    expect(result.uncertainty).toMatchObject({ radiusMeters: expect.any(Number) });
    const radius = (result.uncertainty as { radiusMeters: number }).radiusMeters;
    expect(radius).toBeGreaterThan(10_000);
    expect(radius).toBeLessThan(60_000);
    expect(isAmbiguous(result)).toBe(true);
  });

  test('keeps a large city to its own area despite registry errors (New York, NY)', async () => {
    const result = await geocoder.geocode('New York, NY');
    expect(result.point.lng).toBeCloseTo(-73.98, 1);
    expect((result.uncertainty as { radiusMeters: number }).radiusMeters).toBeLessThan(25_000);
  });

  test('reads a city whatever its spacing, case and trailing country', async () => {
    expect(await geocoder.geocode('Denver , CO, USA')).toEqual(await geocoder.geocode('denver, co'));
  });

  test('matches St. as Saint, returning the registry spelling', async () => {
    expect((await geocoder.geocode('St. Louis, MO')).matched).toBe('Saint Louis, MO');
  });

  test.each([
    ['00000', /ZIP code 00000 is not in the ZIP registry/],
    ['Springfield, ZZ', /No US state or territory has the code "ZZ"/],
    ['Nowhere, ZZ', /"ZZ"/],
    ['Nowhere, CO', /No city named "Nowhere" in CO/],
    ['34001', /ZIP code 34001 \(Apo, AA\) has no location/],
  ])('answers %j, which it reads but cannot place, with NotFoundError', async (address, message) => {
    const err = await failure(address);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toMatch(message);
  });

  test.each([['abc'], ['91,0'], ['1600 Pennsylvania Ave NW']])(
    'refuses %j as an invalid address parameter',
    async (address) => {
      const err = await failure(address);
      expect(err).toBeInstanceOf(InvalidParameterError);
      expect((err as InvalidParameterError).field).toBe('address');
    },
  );
});
