import { InvalidParameterError } from './errors.js';

/** WGS84 bounds of each coordinate, in decimal degrees. */
const BOUNDS = { lat: 90, lng: 180 } as const;

/**
 * The one coordinate rule every layer applies (REST, GraphQL, the geo service): finite and
 * within [-90, 90] for `lat`, [-180, 180] for `lng`. Throws naming the field.
 */
export function assertCoordinate(field: 'lat' | 'lng', value: number, label: string = field): number {
  const bound = BOUNDS[field];
  if (!Number.isFinite(value) || value < -bound || value > bound) {
    throw new InvalidParameterError(label, `${label} must be a number between ${-bound} and ${bound}, got ${value}.`);
  }
  return value;
}
