import { childOcdId, ocdKey, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';
import { slugKey } from '../../model/slugs.js';
import { congressionalRegion, legislativeRegion } from '../shared/index.js';
import { regionOf, titleCase, type ServedRegion } from '../shared/served-regions.js';

type RegionDraft = PlainDraft<'region'>;

/** `004` → `region:co-cd-4`; `AT-LARGE` → `region:de-cd-at-large`. */
export function congressionalOf(state: StateInfo, district: string): RegionDraft | undefined {
  return congressionalRegion(state, isAtLarge(district) ? '00' : district);
}

export function legislativeOf(state: StateInfo, chamber: 'upper' | 'lower', district: string): ServedRegion | undefined {
  if (!/^\d+$/.test(district)) return undefined;
  const draft = legislativeRegion(state, chamber, district);
  return draft === undefined ? undefined : regionOf(draft);
}

/** County names MEDSL spells differently from the Census (the Census name is what slugs use). */
const COUNTY_SPELLINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: { NEWCASTLE: 'NEW CASTLE' },
};

/**
 * A county by its bare name (`ADAMS`, `NEWCASTLE`): `region:co-adams-county`, the slug key
 * of its Census name, as the ocd importer and the geo service name it ("Adams County"; a
 * Parish in Louisiana, a Borough in Alaska). The FIPS code is not known from the name: the
 * ocd import states it.
 */
export function countyOf(state: StateInfo, bareName: string): ServedRegion {
  const bare = titleCase(COUNTY_SPELLINGS[state.usps]?.[bareName] ?? bareName);
  const suffix = state.usps === 'la' ? 'Parish' : state.usps === 'ak' ? 'Borough' : 'County';
  const type = state.usps === 'la' ? 'parish' : state.usps === 'ak' ? 'borough' : 'county';
  return local(state, `${bare} ${suffix}`, 'county', childOcdId(state, type, ocdKey(bare)));
}

/**
 * Places whose offices MEDSL names by a bare prefix (`WILMINGTON MAYOR`), with their Census
 * name: the ocd importer keys places by it ("Wilmington city" → `region:de-wilmington-city`).
 */
const PLACES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: { WILMINGTON: 'Wilmington city' },
};

/** The place an office text starts with, and the rest of the text. */
export function placePrefix(state: StateInfo, office: string): { region: ServedRegion; rest: string } | undefined {
  for (const [prefix, census] of Object.entries(PLACES[state.usps] ?? {})) {
    if (office.startsWith(`${prefix} `)) {
      const region = local(state, census, 'place', childOcdId(state, 'place', ocdKey(census.replace(/ (city|town|village)$/, ''))));
      return { region: { ...region, name: census.replace(/ (city|town|village)$/, '') }, rest: office.slice(prefix.length + 1) };
    }
  }
  return undefined;
}

function local(state: StateInfo, name: string, level: Level, ocdId: string): ServedRegion {
  return regionOf({
    kind: 'region',
    slug: `region:${state.usps}-${slugKey(name)}`,
    state: state.usps,
    tier: '',
    data: { name, level, fips: '', ocdId, aliases: [], population: null },
  });
}

export const isStatewide = (district: string): boolean => district === '' || district === 'STATEWIDE';
export const isAtLarge = (district: string): boolean => /^AT[- ]LARGE$/.test(district);
