import { congressionalDistrict, legislativeDistrict, stateOcdId, stateSlug, type StateInfo } from '@civicgraph/kit';
import type { NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';

/**
 * Region drafts named exactly as the geo service names the same areas (slug, FIPS, OCD id:
 * services/geo/src/store/feature-identity.ts, through kit's divisions), so a district an
 * FEC row or a legislator's term names is the district a point lookup returns. Names are
 * the geo service's defaults (`Colorado Congressional District 1`); the OCD importer
 * states its own names for the regions it owns.
 */

export const NATIONAL_REGION = 'region:us';

type RegionDraft = PlainDraft<'region'>;

function region(slug: string, state: string, level: Level, name: string, fips: string, ocdId: string): RegionDraft {
  return { kind: 'region', slug, state, tier: '', data: { name, level, fips, ocdId, aliases: [], population: null } };
}

/** `region:us`. */
export function nationalRegion(): RegionDraft {
  return region(NATIONAL_REGION, '', 'national', 'United States', '', 'ocd-division/country:us');
}

/** `region:co`; DC and territories alike (`region:dc`, `region:pr`). */
export function stateRegion(state: StateInfo): RegionDraft {
  return region(stateSlug(state), state.usps, 'state', state.name, state.fips, stateOcdId(state));
}

/**
 * A congressional district from its Census/FEC code: `01` → `region:co-cd-1`, `00` →
 * `region:ak-cd-at-large`, `98` → `region:dc-cd-delegate`. DC and the territories have no
 * at-large seat, only a delegate (resident commissioner), so their `00` — how the FEC and
 * congress-legislators write it — is the delegate district `98`, as the Census files have it.
 * Undefined for a code that names no district (empty, Z's, not a number).
 */
export function congressionalRegion(state: StateInfo, code: string): RegionDraft | undefined {
  const text = code.trim();
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const padded = state.kind !== 'state' && Number(text) === 0 ? '98' : String(Number(text)).padStart(2, '0');
  const district = congressionalDistrict(state, padded);
  if (district === undefined) return undefined;
  const label =
    padded === '00'
      ? 'Congressional District (at Large)'
      : padded === '98'
        ? 'Delegate District (at Large)'
        : `Congressional District ${district.key}`;
  return region(
    district.slug,
    state.usps,
    'congressional-district',
    `${state.name} ${label}`,
    state.fips + padded,
    district.ocdId,
  );
}

/**
 * A state legislative district: `region:co-sldu-7`, `region:vt-sldl-chittenden-1`. FIPS is
 * the Census GEOID (state + 3-digit district) for numbered districts, '' for named ones.
 */
export function legislativeRegion(state: StateInfo, chamber: 'upper' | 'lower', code: string): RegionDraft | undefined {
  const district = legislativeDistrict(state, chamber, code);
  if (district === undefined) return undefined;
  const text = code.trim();
  const numeric = /^\d+$/.test(text);
  const house = chamber === 'upper' ? 'State Senate' : 'State House';
  const name = `${state.name} ${house} District ${numeric ? String(Number(text)) : text}`;
  const level: Level = chamber === 'upper' ? 'state-legislative-upper' : 'state-legislative-lower';
  return region(
    district.slug,
    state.usps,
    level,
    name,
    numeric ? state.fips + text.padStart(3, '0') : '',
    district.ocdId,
  );
}

/** The same draft as a reference: created when missing, never overwriting the owner's data. */
export function reference<K extends Exclude<NodeDraft['kind'], 'candidacy'>>(draft: PlainDraft<K>): PlainDraft<K> {
  return { ...draft, createOnly: true };
}
