import { InvalidParameterError } from '@civicgraph/kit';

/**
 * USPS codes a key may be scoped to: the 50 states, the District of Columbia and the five
 * inhabited territories (Puerto Rico, Guam, U.S. Virgin Islands, American Samoa, Northern
 * Mariana Islands). Lowercase, as they appear in slugs and in `Entitlements.states`.
 */
export const USPS_CODES: ReadonlySet<string> = new Set([
  'al',
  'ak',
  'az',
  'ar',
  'ca',
  'co',
  'ct',
  'de',
  'fl',
  'ga',
  'hi',
  'id',
  'il',
  'in',
  'ia',
  'ks',
  'ky',
  'la',
  'me',
  'md',
  'ma',
  'mi',
  'mn',
  'ms',
  'mo',
  'mt',
  'ne',
  'nv',
  'nh',
  'nj',
  'nm',
  'ny',
  'nc',
  'nd',
  'oh',
  'ok',
  'or',
  'pa',
  'ri',
  'sc',
  'sd',
  'tn',
  'tx',
  'ut',
  'vt',
  'va',
  'wa',
  'wv',
  'wi',
  'wy',
  'dc',
  'pr',
  'gu',
  'vi',
  'as',
  'mp',
]);

/** Jurisdiction tiers a key may be scoped to. */
export const TIERS: ReadonlySet<string> = new Set([
  'federal',
  'state',
  'county',
  'municipal',
  'school',
  'judicial',
  'special',
]);

/** Lowercased, de-duplicated, sorted states; an unknown code is an error naming it. */
export function normaliseStates(states: readonly string[]): string[] {
  return normaliseAgainst(states, USPS_CODES, 'states', 'a USPS state or territory code');
}

/** Lowercased, de-duplicated, sorted tiers; an unknown tier is an error naming it. */
export function normaliseTiers(tiers: readonly string[]): string[] {
  return normaliseAgainst(tiers, TIERS, 'tiers', `one of ${[...TIERS].join(', ')}`);
}

function normaliseAgainst(
  values: readonly string[],
  known: ReadonlySet<string>,
  field: string,
  what: string,
): string[] {
  const out = new Set<string>();
  for (const raw of values) {
    const value = raw.trim().toLowerCase();
    if (!known.has(value)) throw new InvalidParameterError(field, `${JSON.stringify(raw)} is not ${what}.`);
    out.add(value);
  }
  return [...out].sort();
}
