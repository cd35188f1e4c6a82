import { NotFoundError } from '@civicgraph/kit';
import type { GeocodeResult, Geocoder } from './geocoder.js';
import { parseAddress } from './parse-address.js';
import { isPlaced, zipcodesRegistry, type ZipRegistry, type ZipRow } from './zip-registry.js';

/** Options of the embedded geocoder. */
export interface EmbeddedGeocoderOptions {
  /** The ZIP registry; defaults to the `zipcodes` package's, built by `prepare` or on first use. */
  registry?: () => ZipRegistry;
}

/**
 * The geocoder that needs no third party: reads `lat,lng`, a ZIP or ZIP+4, or `City, ST`
 * (see `parseAddress`) and places ZIPs and cities at registry centroids with an uncertainty
 * disc (radius rules on `ZipRegistry`). A street address is placed by its ZIP or city, at
 * that precision (so the answer is ambiguous, with each district's share); one ending in
 * neither is refused as unreadable.
 */
export class EmbeddedGeocoder implements Geocoder {
  private readonly registry: () => ZipRegistry;

  constructor(options: EmbeddedGeocoderOptions = {}) {
    this.registry = options.registry ?? zipcodesRegistry;
  }

  /** Builds the ZIP registry (about a second): the first ZIP or city lookup would pay for it otherwise. */
  prepare(): void {
    this.registry();
  }

  async geocode(address: string): Promise<GeocodeResult> {
    const parsed = parseAddress(address);
    switch (parsed.kind) {
      case 'coordinates': {
        const { lat, lng } = parsed;
        return {
          point: { lat, lng },
          precision: 'coordinates',
          source: 'embedded:coordinates',
          matched: `${lat},${lng}`,
        };
      }
      case 'zip':
        return streetNote(this.zip(parsed.zip), parsed.fromStreet, 'ZIP code');
      case 'city':
        return streetNote(this.city(parsed.city, parsed.state), parsed.fromStreet, 'city');
    }
  }

  private zip(zip: string): GeocodeResult {
    const row = this.registry().zip(zip);
    if (row === undefined) throw new NotFoundError(`ZIP code ${zip} is not in the ZIP registry.`, { field: 'address' });
    if (!isPlaced(row)) throw unplaced(`ZIP code ${zip} (${row.city}, ${row.state})`);
    const { point, radiusMeters } = this.registry().zipArea(row);
    return {
      point,
      precision: 'zip',
      source: 'embedded:zipcodes',
      uncertainty: { radiusMeters },
      matched: `${zip} (${row.city}, ${row.state})`,
    };
  }

  private city(city: string, state: string): GeocodeResult {
    const registry = this.registry();
    if (!registry.hasState(state))
      throw new NotFoundError(`No US state or territory has the code "${state}".`, { field: 'address' });
    const rows = registry.cityZips(city, state);
    if (rows.length === 0)
      throw new NotFoundError(`No city named "${city}" in ${state} is in the ZIP registry.`, { field: 'address' });
    const placed = rows.filter(isPlaced);
    if (placed.length === 0) throw unplaced(`${displayCity(rows)}`);
    const { point, radiusMeters } = registry.cityArea(placed);
    return {
      point,
      precision: 'city',
      source: 'embedded:zipcodes',
      uncertainty: { radiusMeters },
      matched: displayCity(rows),
    };
  }
}

/** An answer placed by a street address's ZIP or city says so: the street itself was not placed. */
function streetNote(result: GeocodeResult, fromStreet: true | undefined, what: string): GeocodeResult {
  if (fromStreet === undefined) return result;
  return { ...result, matched: `${result.matched}: the address's ${what} (this geocoder does not place streets)` };
}

/** The registry's spelling of a city, e.g. `Saint Louis, MO`. */
function displayCity(rows: readonly ZipRow[]): string {
  const first = rows[0]!;
  return `${first.city}, ${first.state}`;
}

function unplaced(what: string): NotFoundError {
  return new NotFoundError(`${what} has no location in the ZIP registry (military and some PO-box ZIPs have none).`, {
    field: 'address',
  });
}
