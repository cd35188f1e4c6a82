import type { GeocodeResult, Geocoder } from './geocoder.js';
import { readForm } from './parse-address.js';

/**
 * Answers the forms the embedded geocoder reads (`lat,lng`, ZIP, `City, ST`) locally and
 * passes everything else — street addresses — to a street-level geocoder. A street geocoder
 * such as Census cannot place a bare ZIP or city, and coordinates need no geocoder at all.
 */
export class LayeredGeocoder implements Geocoder {
  constructor(
    private readonly local: Geocoder,
    private readonly street: Geocoder,
  ) {}

  prepare(): void {
    this.local.prepare();
    this.street.prepare();
  }

  async geocode(address: string): Promise<GeocodeResult> {
    return readForm(address) === undefined ? this.street.geocode(address) : this.local.geocode(address);
  }
}
