import { childOcdId, ocdKey, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';
import { slugKey } from '../../model/slugs.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { edge } from '../shared/batch.js';
import { congressionalRegion, legislativeRegion, reference, stateRegion } from '../shared/index.js';

type RegionDraft = PlainDraft<'region'>;

/**
 * A region a contest is held in, as a reference draft (`createOnly`): the results importer
 * owns no region, so it never overwrites what the ocd import states, but a region missing
 * from the store is created so the contest's edges have somewhere to point.
 */
export interface ContestRegion {
  draft: RegionDraft;
  /** The slug without `region:`: the first part of office and contest keys. */
  key: string;
  level: Level;
  /** For contest names: `Colorado`, `Adams County`, `Wilmington`. */
  name: string;
}

export function regionOf(draft: RegionDraft, name = draft.data.name): ContestRegion {
  return { draft: reference(draft), key: draft.slug.slice('region:'.length), level: draft.data.level, name };
}

export function stateOf(state: StateInfo): ContestRegion {
  return regionOf(stateRegion(state));
}

/** `004` → `region:co-cd-4`; `AT-LARGE` → `region:de-cd-at-large`. */
export function congressionalOf(state: StateInfo, district: string): RegionDraft | undefined {
  return congressionalRegion(state, isAtLarge(district) ? '00' : district);
}

export function legislativeOf(state: StateInfo, chamber: 'upper' | 'lower', district: string): ContestRegion | undefined {
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
export function countyOf(state: StateInfo, bareName: string): ContestRegion {
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
export function placePrefix(state: StateInfo, office: string): { region: ContestRegion; rest: string; within: Containment } | undefined {
  for (const [prefix, { census, county }] of Object.entries(PLACES[state.usps] ?? {})) {
    if (office.startsWith(`${prefix} `)) {
      const bare = census.replace(/ (city|town|village)$/, '');
      const region = local(state, census, 'place', childOcdId(state, 'place', ocdKey(bare)));
      const parent = countyOf(state, county).draft;
      return { region: { ...region, name: bare }, rest: office.slice(prefix.length + 1), within: { edges: [edge('WITHIN', region.draft.slug, parent.slug)], regions: [parent] } };
    }
  }
  return undefined;
}

function local(state: StateInfo, name: string, level: Level, ocdId: string): ContestRegion {
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

const SMALL_WORDS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'at', 'to', 'a']);

/** `REGENT OF THE UNIVERSITY OF COLORADO` → `Regent of the University of Colorado`. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .split(' ')
    .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.replace(/(^|[-(/"])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase())))
    .join(' ');
}
