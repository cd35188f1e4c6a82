import { childOcdId, ocdKey, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';
import { slugKey } from '../../model/slugs.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { edge } from '../shared/batch.js';
import { congressionalRegion, legislativeRegion } from '../shared/index.js';
import { regionOf, titleCase, type ServedRegion } from '../shared/served-regions.js';

type RegionDraft = PlainDraft<'region'>;

/** `004` → `region:co-cd-4`; `AT-LARGE` → `region:de-cd-at-large`. */
export function congressionalOf(state: StateInfo, district: string): RegionDraft | undefined {
  return congressionalRegion(state, isAtLarge(district) ? '00' : district);
}

export function legislativeOf(
  state: StateInfo,
  chamber: 'upper' | 'lower',
  district: string,
): ServedRegion | undefined {
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
 * name — the ocd importer keys places by it ("Wilmington city" → `region:de-wilmington-city`)
 * — and the county they lie in.
 */
const PLACES: Readonly<Record<string, Readonly<Record<string, { census: string; county: string }>>>> = {
  de: { WILMINGTON: { census: 'Wilmington city', county: 'NEW CASTLE' } },
};

/** What a region lies within: WITHIN edges and reference drafts of the regions they point at. */
export interface Containment {
  edges: EdgeDoc[];
  regions: RegionDraft[];
}

/** The place an office text starts with, the rest of the text, and the place's county. */
export function placePrefix(
  state: StateInfo,
  office: string,
): { region: ServedRegion; rest: string; within: Containment } | undefined {
  for (const [prefix, { census, county }] of Object.entries(PLACES[state.usps] ?? {})) {
    if (office.startsWith(`${prefix} `)) {
      const bare = census.replace(/ (city|town|village)$/, '');
      const region = local(state, census, 'place', childOcdId(state, 'place', ocdKey(bare)));
      const parent = countyOf(state, county).draft;
      return {
        region: { ...region, name: bare },
        rest: office.slice(prefix.length + 1),
        within: { edges: [edge('WITHIN', region.draft.slug, parent.slug)], regions: [parent] },
      };
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
