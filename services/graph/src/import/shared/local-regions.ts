import { childOcdId, ocdKey, slugKey, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';

/**
 * The districts real ballots need below the state legislature, named by one rule each so
 * every importer (results, precinct districts, VIP) draws the same node:
 * - judicial districts: `region:co-judicial-district-2` (OCD `…/state:co/judicial_district:2`);
 * - a county's commission or council districts: `region:de-kent-county-council-district-1`
 *   (OCD `…/county:kent/council_district:1`, as the OCD local-government files have it);
 * - a city's council districts or wards: `region:de-wilmington-council-district-4` (OCD
 *   `…/place:wilmington/council_district:4`);
 * - a special district's director districts: `region:co-regional-transportation-district-a`
 *   (OCD `…/special_district:regional_transportation_district/district:a`).
 * Such districts rarely have a loaded boundary; a ballot then says it could not resolve them.
 */

type RegionDraft = PlainDraft<'region'>;

function region(slug: string, state: StateInfo, level: Level, name: string, ocdId: string): RegionDraft {
  return {
    kind: 'region',
    slug,
    state: state.usps,
    tier: '',
    data: { name, level, fips: '', ocdId, aliases: [], population: null },
  };
}

/** `2ND` → `2nd`; other codes lowercased. */
function code(text: string): string {
  return text.trim().toLowerCase();
}

/** `2ND JUDICIAL DISTRICT` → the 2nd judicial district; undefined for other text. */
export function judicialDistrictRegion(state: StateInfo, district: string): RegionDraft | undefined {
  const n = /^(\d+)(ST|ND|RD|TH)? JUDICIAL DISTRICT$/.exec(district.trim().toUpperCase())?.[1];
  if (n === undefined) return undefined;
  const number = String(Number(n));
  return region(
    `region:${state.usps}-judicial-district-${number}`,
    state,
    'judicial-district',
    `${state.name} ${ordinal(Number(number))} Judicial District`,
    childOcdId(state, 'judicial_district', number),
  );
}

/** A county's council (commission, levy court) district `n`, inside `county` (a county region draft). */
export function countyDistrictRegion(state: StateInfo, county: RegionDraft, district: string): RegionDraft | undefined {
  const n = numbered(district);
  if (n === undefined) return undefined;
  const key = county.slug.slice('region:'.length);
  return region(
    `region:${key}-council-district-${n}`,
    state,
    'county-commission-district',
    `${county.data.name} Council District ${n}`,
    `${county.data.ocdId}/council_district:${n}`,
  );
}

/** A city's council district or ward `n`; `place` is the city's bare name (`Wilmington`). */
export function wardRegion(state: StateInfo, place: string, district: string): RegionDraft | undefined {
  const n = numbered(district);
  if (n === undefined) return undefined;
  return region(
    `region:${state.usps}-${slugKey(place)}-council-district-${n}`,
    state,
    'ward',
    `${place} Council District ${n}`,
    `${childOcdId(state, 'place', ocdKey(place))}/council_district:${n}`,
  );
}

/** Director district `district` (a letter or number) of a special district named `body` (`REGIONAL TRANSPORTATION DISTRICT`). */
export function specialDistrictRegion(state: StateInfo, body: string, district: string): RegionDraft | undefined {
  const c = code(district);
  if (!/^[a-z0-9]{1,3}$/.test(c)) return undefined;
  const ocdBody = ocdKey(body).replace(/ /g, '_');
  return region(
    `region:${state.usps}-${slugKey(body)}-${c}`,
    state,
    'special-district',
    `${titleWords(body)}, District ${c.toUpperCase()}`,
    `${childOcdId(state, 'special_district', ocdBody)}/district:${c}`,
  );
}

function numbered(district: string): string | undefined {
  const t = district.trim();
  return /^\d+$/.test(t) ? String(Number(t)) : undefined;
}

function titleWords(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
