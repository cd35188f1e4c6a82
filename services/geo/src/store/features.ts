/**
 * Why a feature of a boundary file did not become a region, as a stable word: imports
 * count rejections by it, and `--strict` fails on any.
 */
export type RejectCode =
  | 'no_geometry'
  | 'not_polygonal'
  | 'malformed_geometry'
  | 'degenerate_geometry'
  | 'self_intersecting'
  | 'not_lon_lat'
  | 'no_state'
  | 'other_state'
  | 'no_district_code'
  | 'no_name';

/** A feature of the file (by its position there) that was left out for a fault, and why. */
export interface RejectedFeature {
  index: number;
  code: RejectCode;
  reason: string;
}

/**
 * A feature that is not a region by design — a `ZZ` water pseudo-district, an area with no
 * district — and so is left out without being a fault.
 */
export interface SkippedFeature {
  index: number;
  reason: string;
}

/** Rejections counted by code, codes in alphabetical order. */
export function countByCode(rejected: readonly RejectedFeature[]): Partial<Record<RejectCode, number>> {
  const counts = new Map<RejectCode, number>();
  for (const r of rejected) counts.set(r.code, (counts.get(r.code) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)));
}
