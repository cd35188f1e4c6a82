import { CivicError, InvalidParameterError, assertCoordinate } from '@civicgraph/kit';
import { ACCEPTED_FORMS, checkAddress, quoteAddress } from './geocoder.js';

/** An address read into one of the forms the embedded geocoder understands. */
export type ParsedAddress =
  | { kind: 'coordinates'; lat: number; lng: number }
  | { kind: 'zip'; zip: string; fromStreet?: true }
  | { kind: 'city'; city: string; state: string; fromStreet?: true };

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const COORDINATES = new RegExp(String.raw`^(${NUMBER})\s*,\s*(${NUMBER})$`);
const ZIP = /^(\d{5})(?:-\d{4})?$/;
const CITY_STATE =
  /^([^,]+),\s*([a-z]{2})(?:(?:\s*,\s*|\s+)(?:usa|us|u\.s\.(?:a\.)?|united states(?: of america)?))?$/i;
const CITY_NAME = /^\p{L}[\p{L}\p{M}.' -]*$/u;

/** A street address's trailing ZIP or ZIP+4 (`…, Denver, CO 80202`, `… 80202-1234, USA`). */
const TRAILING_ZIP = /[\s,](\d{5})(?:-\d{4})?(?:\s*,?\s*(?:usa|us|u\.s\.(?:a\.)?|united states(?: of america)?))?$/i;

/**
 * Reads an address as `lat,lng`, a ZIP or ZIP+4 (reduced to its 5 digits), or `City, ST`
 * (any case, extra spaces, an optional trailing `USA`). A street address is read by what
 * this geocoder can place of it: its trailing ZIP, else its trailing `City, ST` — marked
 * `fromStreet`, so the answer says the street itself was not placed. Throws
 * `InvalidParameterError('address', …)` naming the accepted forms, or naming the coordinate
 * that is out of range.
 */
export function parseAddress(address: unknown): ParsedAddress {
  const parsed = readForm(address) ?? readStreetArea(checkAddress(address));
  if (parsed === undefined) {
    const text = checkAddress(address);
    throw new InvalidParameterError(
      'address',
      `address ${quoteAddress(text)} is not a form this geocoder reads; give ${ACCEPTED_FORMS}.`,
    );
  }
  return parsed;
}

/**
 * Like `parseAddress`, but undefined when the address is in none of the forms (a street
 * address, say) — so another geocoder can take it. Still throws for empty or oversized
 * input and for out-of-range coordinates.
 */
export function readForm(address: unknown): ParsedAddress | undefined {
  const text = checkAddress(address);
  return parseCoordinates(text) ?? parseZip(text) ?? parseCity(text);
}

/** The area a street address ends with: `…, City, ST ZIP` → the ZIP; `…, City, ST` → the city. */
function readStreetArea(text: string): ParsedAddress | undefined {
  const zip = TRAILING_ZIP.exec(text);
  if (zip !== null) return { kind: 'zip', zip: zip[1]!, fromStreet: true };
  // The widest tail after a comma that reads as `City, ST` (past a suite or a county part).
  const parts = text.split(',');
  for (let k = 1; k < parts.length - 1; k++) {
    const city = parseCity(parts.slice(k).join(',').trim());
    if (city?.kind === 'city') return { ...city, fromStreet: true };
  }
  return undefined;
}

function parseCoordinates(text: string): ParsedAddress | undefined {
  const m = COORDINATES.exec(text);
  if (m === null) return undefined;
  return { kind: 'coordinates', lat: coordinate('lat', m[1]!, 'latitude'), lng: coordinate('lng', m[2]!, 'longitude') };
}

/** One coordinate under the shared kit rule, reported against the `address` field. */
function coordinate(field: 'lat' | 'lng', digits: string, label: string): number {
  try {
    return assertCoordinate(field, Number(digits), label);
  } catch (err) {
    if (!(err instanceof CivicError)) throw err;
    throw new InvalidParameterError('address', `address reads as "lat,lng" but its ${err.message}`, { cause: err });
  }
}

function parseZip(text: string): ParsedAddress | undefined {
  const m = ZIP.exec(text);
  return m === null ? undefined : { kind: 'zip', zip: m[1]! };
}

function parseCity(text: string): ParsedAddress | undefined {
  const m = CITY_STATE.exec(text);
  if (m === null) return undefined;
  const city = m[1]!.trim().replace(/\s+/g, ' ');
  if (!CITY_NAME.test(city)) return undefined;
  return { kind: 'city', city, state: m[2]!.toUpperCase() };
}
