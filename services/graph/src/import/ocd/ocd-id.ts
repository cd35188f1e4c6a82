import { findState, type StateInfo } from '@civicgraph/kit';

const PREFIX = 'ocd-division/country:us';

/** An OCD division id taken apart: its state (or DC, territory) and the `type:key` steps below it. */
export interface OcdId {
  id: string;
  /** Undefined for the country itself. */
  state?: StateInfo;
  /** Steps below the state, e.g. `[['cd', '1']]`, `[['county', 'adams'], ['place', 'aurora']]`. */
  below: [type: string, key: string][];
}

/**
 * Parses a US OCD division id. Undefined when it is not one, or names a state, DC or
 * territory that kit does not know (Orleans Territory, Dakota Territory), or when the
 * first step's type does not match the state's kind (`state:pr`).
 */
export function parseOcdId(id: string): OcdId | undefined {
  const text = id.trim();
  if (text === PREFIX) return { id: text, below: [] };
  if (!text.startsWith(`${PREFIX}/`)) return undefined;
  const steps = text
    .slice(PREFIX.length + 1)
    .split('/')
    .map((step) => step.split(':'));
  if (steps.some((s) => s.length !== 2 || s[0] === '' || s[1] === '')) return undefined;
  const [first, ...below] = steps as [string, string][];
  const [type, usps] = first!;
  const state = findState(usps);
  if (state === undefined || state.kind !== type || state.usps !== usps) return undefined;
  return { id: text, state, below };
}

/**
 * A name-like form of an OCD key, for slugging it the way the geo service slugs names:
 * `1st_barnstable` → `1st barnstable`, `prince_george~s` → `prince george's`.
 */
export function ocdKeyText(key: string): string {
  return key.replace(/_/g, ' ').replace(/~/g, "'");
}
