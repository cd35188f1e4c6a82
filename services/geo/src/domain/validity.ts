import { isIsoDate } from '@civicgraph/kit';
import type { RegionRecord, Validity } from './region.js';

/** How a region version relates to a date: its winners serve then, or elections use it then. */
export type DistrictRole = 'serving' | 'electing';

/** A region version in force on a date, with the roles it plays on that date. */
export interface DatedRegion {
  region: RegionRecord;
  roles: DistrictRole[];
}

/** `[from, to)` contains `date`; ISO dates compare correctly as strings. */
function within(date: string, from: string | undefined, to: string | undefined): boolean {
  return (from === undefined || from <= date) && (to === undefined || date < to);
}

/** The roles a version plays on `date`: none when it is not in force at all. */
export function rolesOn(validity: Validity | undefined, date: string): DistrictRole[] {
  const v = validity ?? {};
  const roles: DistrictRole[] = [];
  if (within(date, v.from, v.to)) roles.push('serving');
  if (within(date, v.electionsFrom ?? v.from, v.electionsTo ?? v.to)) roles.push('electing');
  return roles;
}

/**
 * Keeps the versions in force on `date` and marks each electing and/or serving. A region
 * with no validity is in force on every date, in both roles.
 */
export function onDate(regions: readonly RegionRecord[], date: string): DatedRegion[] {
  const out: DatedRegion[] = [];
  for (const region of regions) {
    const roles = rolesOn(region.validity, date);
    if (roles.length > 0) out.push({ region, roles });
  }
  return out;
}

/** Identity of a boundary version: the slug plus when it starts, so maps can coexist. */
export function versionKey(r: RegionRecord): string {
  return r.validity?.from === undefined ? r.slug : `${r.slug}@${r.validity.from}`;
}

/** The snake_case names of validity fields, as flags, manifests and REST spell them. */
export const VALIDITY_FIELDS: Record<keyof Validity, string> = {
  from: 'valid_from',
  to: 'valid_to',
  electionsFrom: 'elections_from',
  electionsTo: 'elections_to',
};

/** What is wrong with an interval (a malformed date, an end before its start), by field. */
export function validityProblem(v: Validity): { field: string; detail: string } | undefined {
  for (const key of Object.keys(VALIDITY_FIELDS) as (keyof Validity)[]) {
    const value = v[key];
    if (value !== undefined && !isIsoDate(value)) {
      return {
        field: VALIDITY_FIELDS[key],
        detail: `${VALIDITY_FIELDS[key]} must be a date written YYYY-MM-DD, got "${value}".`,
      };
    }
  }
  if (v.from !== undefined && v.to !== undefined && v.to <= v.from)
    return { field: 'valid_to', detail: 'valid_to must be after valid_from.' };
  const ef = v.electionsFrom ?? v.from;
  const et = v.electionsTo ?? v.to;
  if (ef !== undefined && et !== undefined && et <= ef)
    return { field: 'elections_to', detail: 'elections_to must be after elections_from.' };
  return undefined;
}
