import { InvalidParameterError } from '@civicgraph/kit';

/** A WGS84 position in decimal degrees. */
export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * How finely a result locates the address, finest first. `coordinates` means the caller gave
 * the point itself; `zip` and `city` are centroids of an area, so they carry an uncertainty.
 */
export type GeocodePrecision = 'rooftop' | 'street' | 'zip' | 'city' | 'coordinates';

/**
 * Where the address may really lie around `point`: a disc, or a ring of `[lng, lat]`
 * positions (GeoJSON order, first position repeated last).
 */
export type GeocodeUncertainty =
  { radiusMeters: number } | { polygon: readonly (readonly [lng: number, lat: number])[] };

/** One geocoded address. */
export interface GeocodeResult {
  point: GeoPoint;
  precision: GeocodePrecision;
  /** Which geocoder and data answered: `embedded:coordinates`, `embedded:zipcodes`, `census`. */
  source: string;
  /** Present when the point stands for an area (ZIP, city) rather than an address. */
  uncertainty?: GeocodeUncertainty;
  /** The address as understood, normalised (e.g. `80202 (Denver, CO)`). */
  matched: string;
}

/**
 * The geocoding port. Adapters throw `InvalidParameterError('address', …)` for input they
 * cannot read, `NotFoundError` for input they read but cannot place, and
 * `UpstreamUnavailableError` when a remote service fails.
 */
export interface Geocoder {
  geocode(address: string): Promise<GeocodeResult>;
  /**
   * Builds the tables the geocoder looks in (e.g. the ZIP registry), so that no request
   * pays for them inside its deadline; the geo service calls it before it reports SERVING.
   */
  prepare(): void;
}

/** The longest address accepted; longer input is refused before any parsing. */
export const MAX_ADDRESS_LENGTH = 1_000;

/** The forms the embedded geocoder reads, for error details. */
export const ACCEPTED_FORMS =
  'coordinates "lat,lng" (e.g. "39.7392,-104.9903"), a ZIP code "80202" or ZIP+4 "80202-1234", ' +
  'or a city "City, ST" (e.g. "Denver, CO")';

/** Precisions that stand for an area: results at these precisions are ambiguous. */
const AREA_PRECISIONS: ReadonlySet<GeocodePrecision> = new Set(['zip', 'city']);

/** Whether a result is coarser than a street address, so several districts may apply. */
export function isAmbiguous(result: GeocodeResult): boolean {
  return AREA_PRECISIONS.has(result.precision);
}

/**
 * The shared input rule of every adapter: a string of 1..MAX_ADDRESS_LENGTH characters that
 * is not only whitespace. The length is checked first so oversized input costs nothing.
 * Returns the address trimmed.
 */
export function checkAddress(address: unknown): string {
  if (typeof address !== 'string')
    throw new InvalidParameterError('address', 'address is required and must be a string.');
  if (address.length > MAX_ADDRESS_LENGTH) {
    throw new InvalidParameterError(
      'address',
      `address must be at most ${MAX_ADDRESS_LENGTH} characters, got ${address.length}.`,
    );
  }
  const trimmed = address.trim();
  if (trimmed === '') throw new InvalidParameterError('address', `address must not be empty; give ${ACCEPTED_FORMS}.`);
  return trimmed;
}

/** The address for an error detail: shortened, so a detail never echoes a large input. */
export function quoteAddress(address: string): string {
  return JSON.stringify(address.length > 80 ? `${address.slice(0, 77)}...` : address);
}
