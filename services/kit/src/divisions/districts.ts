import { ocdKey, slugKey } from './slug.js';
import { childOcdId } from './ocd.js';
import type { StateInfo } from './us-states.js';

/**
 * Identity of congressional and state legislative districts, shared by the geo service
 * (boundary files) and the graph importers (FEC, legislators, results), so one district has
 * one slug whichever source names it.
 */
export interface DistrictIdentity {
  slug: string;
  ocdId: string;
  /** The district's key inside the slug: `1`, `at-large`, `delegate`, `chittenden-1`. */
  key: string;
}

/**
 * A congressional district from its code: `region:co-cd-1` (OCD `…/cd:1`); `00` (at large)
 * is `region:ak-cd-at-large`, `98` (DC's delegate, Puerto Rico's resident commissioner)
 * `region:dc-cd-delegate`, both OCD `…/cd:at-large` as the published ids have them.
 * Leading zeros are dropped (`001` → `1`). Undefined for a code of Z's (water, no district).
 */
export function congressionalDistrict(state: StateInfo, code: string): DistrictIdentity | undefined {
  const text = code.trim();
  if (text === '' || /^z+$/i.test(text)) return undefined;
  const numeric = /^\d+$/.test(text);
  const padded = numeric ? String(Number(text)).padStart(2, '0') : text;
  const key =
    padded === '00' ? 'at-large' : padded === '98' ? 'delegate' : numeric ? String(Number(text)) : slugKey(text);
  const ocd = padded === '00' || padded === '98' ? 'at-large' : ocdKey(key);
  return { slug: `region:${state.usps}-cd-${key}`, ocdId: childOcdId(state, 'cd', ocd), key };
}

/**
 * A state legislative district: `region:co-sldu-7` / `region:co-sldl-15` (OCD `…/sldu:7`);
 * numbers lose leading zeros, named districts (`Chittenden-1`) use their slug key.
 * Undefined for a code of Z's.
 */
export function legislativeDistrict(
  state: StateInfo,
  chamber: 'upper' | 'lower',
  code: string,
): DistrictIdentity | undefined {
  const text = code.trim();
  if (text === '' || /^z+$/i.test(text)) return undefined;
  const tag = chamber === 'upper' ? 'sldu' : 'sldl';
  const district = /^\d+$/.test(text) ? String(Number(text)) : text;
  const key = slugKey(district);
  return { slug: `region:${state.usps}-${tag}-${key}`, ocdId: childOcdId(state, tag, ocdKey(district)), key };
}

/** `region:co`; DC `region:dc`, territories likewise. */
export function stateSlug(state: StateInfo): string {
  return `region:${state.usps}`;
}
