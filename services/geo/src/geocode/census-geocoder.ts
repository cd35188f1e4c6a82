import { InvalidParameterError, NotFoundError, UpstreamUnavailableError } from '@civicgraph/kit';
import { checkAddress, quoteAddress, type GeocodeResult, type Geocoder } from './geocoder.js';

/** The public US Census Geocoder. */
export const CENSUS_GEOCODER_URL = 'https://geocoding.geo.census.gov';
const PATH = '/geocoder/locations/onelineaddress';

/** Options of the Census Geocoder adapter. */
export interface CensusGeocoderOptions {
  /** Scheme, host and port of the service (default CENSUS_GEOCODER_URL); tests point it at a local server. */
  baseUrl?: string;
  /** Census address-range benchmark (default `Public_AR_Current`). */
  benchmark?: string;
  /** Milliseconds to wait for the whole answer before giving up (default 5,000). */
  timeoutMs?: number;
  /** The fetch function (default: the global `fetch`). */
  fetch?: typeof fetch;
}

/**
 * An adapter for the Census Geocoder's one-line address search. It matches street
 * addresses against TIGER address ranges and interpolates along the street, so a match has
 * precision `street`; when Census offers several matches the first (its best) is taken.
 * A miss is `NotFoundError`; a refusal of the address (HTTP 400) is
 * `InvalidParameterError('address')`; a network failure, timeout, other non-2xx status or an
 * unreadable body is `UpstreamUnavailableError`.
 */
export class CensusGeocoder implements Geocoder {
  private readonly baseUrl: string;
  private readonly benchmark: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: CensusGeocoderOptions = {}) {
    this.baseUrl = options.baseUrl ?? CENSUS_GEOCODER_URL;
    this.benchmark = options.benchmark ?? 'Public_AR_Current';
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** Nothing to build: every lookup is a request to the Census service. */
  prepare(): void {}

  async geocode(address: string): Promise<GeocodeResult> {
    const text = checkAddress(address);
    const body = await this.request(text);
    const match = firstMatch(body);
    if (match === null)
      throw new NotFoundError(`The Census Geocoder found no street address matching ${quoteAddress(text)}.`, {
        field: 'address',
      });
    return { point: match.point, precision: 'street', source: 'census', matched: match.matched };
  }

  /** The URL of the search for one address. */
  url(address: string): string {
    const url = new URL(PATH, this.baseUrl);
    url.search = new URLSearchParams({ address, benchmark: this.benchmark, format: 'json' }).toString();
    return url.toString();
  }

  private async request(address: string): Promise<unknown> {
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(this.url(address), {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { accept: 'application/json' },
      });
      text = await response.text();
    } catch (err) {
      throw new UpstreamUnavailableError(
        `The Census Geocoder could not be reached: ${describeFailure(err, this.timeoutMs)}.`,
        { cause: err },
      );
    }
    if (response.status === 400) throw refused(text);
    if (!response.ok) throw new UpstreamUnavailableError(`The Census Geocoder answered HTTP ${response.status}.`);
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw unreadable('its body is not JSON', err);
    }
  }
}

/** The first match's point and address, null for no match; throws on an unexpected shape. */
function firstMatch(body: unknown): { point: { lat: number; lng: number }; matched: string } | null {
  const matches = field(field(body, 'result'), 'addressMatches');
  if (!Array.isArray(matches)) throw unreadable('it has no result.addressMatches list');
  if (matches.length === 0) return null;
  const coordinates = field(matches[0], 'coordinates');
  const x = field(coordinates, 'x');
  const y = field(coordinates, 'y');
  const matched = field(matches[0], 'matchedAddress');
  if (!isLongitude(x) || !isLatitude(y) || typeof matched !== 'string') {
    throw unreadable('its first match lacks coordinates {x: longitude, y: latitude} or matchedAddress');
  }
  return { point: { lat: y, lng: x }, matched };
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function isLatitude(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 90;
}

function isLongitude(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 180;
}

function unreadable(why: string, cause?: unknown): UpstreamUnavailableError {
  return new UpstreamUnavailableError(`The Census Geocoder returned a response this adapter cannot read: ${why}.`, {
    cause,
  });
}

/** Census answers 400 with `{"errors": [...]}` when it refuses the address itself. */
function refused(text: string): InvalidParameterError {
  let errors: unknown;
  try {
    errors = field(JSON.parse(text), 'errors');
  } catch {
    errors = undefined;
  }
  const reasons = Array.isArray(errors) ? errors.filter((e) => typeof e === 'string').join('; ') : '';
  return new InvalidParameterError(
    'address',
    `The Census Geocoder refused the address${reasons === '' ? '' : `: ${reasons}`}.`,
  );
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}
