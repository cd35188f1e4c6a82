import { InvalidParameterError } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import { MAX_ADDRESS_LENGTH, type Geocoder } from './geocoder.js';

/** What the contract suite needs from one adapter. */
export interface GeocoderContractSubject {
  geocoder: () => Geocoder;
  /** An address this adapter places. */
  known: string;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the geocoder to reject'),
    (err: unknown) => err,
  );
}

/** The behaviour every `Geocoder` adapter shares; run once per adapter. */
export function describeGeocoderContract(name: string, subject: GeocoderContractSubject): void {
  describe(`Geocoder contract: ${name}`, () => {
    test.each([
      ['empty', ''],
      ['whitespace', ' \t\n '],
      ['10 KB', 'x'.repeat(10_240)],
      ['one past the limit', '1'.repeat(MAX_ADDRESS_LENGTH + 1)],
    ])('refuses an %s address as an invalid `address` parameter', async (_, address) => {
      const err = await rejection(subject.geocoder().geocode(address));
      expect(err).toBeInstanceOf(InvalidParameterError);
      expect((err as InvalidParameterError).field).toBe('address');
      expect((err as Error).message.length).toBeLessThan(400);
    });

    test('places a known address at a valid point with a source and the matched address', async () => {
      const result = await subject.geocoder().geocode(subject.known);
      expect(Math.abs(result.point.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(result.point.lng)).toBeLessThanOrEqual(180);
      expect(['rooftop', 'street', 'zip', 'city', 'coordinates']).toContain(result.precision);
      expect(result.source).not.toBe('');
      expect(result.matched).not.toBe('');
    });

    test('names the length limit when refusing an oversized address', async () => {
      const err = await rejection(subject.geocoder().geocode('9'.repeat(10_240)));
      expect((err as Error).message).toContain(String(MAX_ADDRESS_LENGTH));
    });
  });
}
