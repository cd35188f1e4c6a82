import { countyIdentity, fullCountyName } from '../domain/county.js';
import {
  childOcdId,
  congressionalDistrict,
  findState,
  legislativeDistrict,
  stateOcdId,
  type StateInfo,
} from '@civicgraph/kit';
import { Level, ocdKey, slugKey, type RegionRecord } from '../domain/region.js';
import type { RejectCode } from './features.js';

/** Everything a region record holds besides its level and geometry. */
export type RegionIdentity = Omit<RegionRecord, 'level' | 'geometry'>;

/**
 * A feature's identity, or why it has none: `not_a_district` (a `ZZ` water area) is left
 * out by design, any other code is a fault in the feature.
 */
export type IdentityResult = { identity: RegionIdentity } | { code: RejectCode | 'not_a_district'; reason: string };

type Props = Readonly<Record<string, unknown>>;

/** Options that fill in what a file's properties leave out. */
export interface IdentityOptions {
  /** Lowercase USPS code for files whose features do not name their state. */
  state?: string;
  /** Property holding the code of places, school districts and precincts (e.g. VIP's `ELECTPCT`). */
  codeField?: string;
  /** Property holding their display name. */
  nameField?: string;
}

/** The first non-empty string among the named properties (numbers are stringified). */
function prop(props: Props, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = props[name];
    if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') return String(v).trim();
  }
  return undefined;
}

/** Like `prop`, over every key matching a pattern (e.g. CD118FP, CD119FP). */
function propMatching(props: Props, pattern: RegExp): string | undefined {
  return prop(props, ...Object.keys(props).filter((k) => pattern.test(k)));
}

/**
 * The feature's state: its own (STATEFP, STUSPS…), else `options.state`. A feature naming
 * a state other than `options.state` is refused: the option names the one state an import
 * may touch.
 */
function stateOf(props: Props, options: IdentityOptions): { state: StateInfo } | { code: RejectCode; reason: string } {
  const own = prop(props, 'STATEFP', 'STATEFP20', 'STATEFP10', 'STUSPS', 'STATE');
  const named = own === undefined ? undefined : findState(own);
  const given = options.state === undefined ? undefined : findState(options.state);
  if (named !== undefined && given !== undefined && named.usps !== given.usps) {
    return {
      code: 'other_state',
      reason: `the feature is in ${named.usps.toUpperCase()}, not in ${given.usps.toUpperCase()} (the state option)`,
    };
  }
  const state = named ?? given;
  if (state === undefined)
    return { code: 'no_state', reason: 'no state: the feature has no STATEFP and no state option was given' };
  return { state };
}

/**
 * Derives slug, name, FIPS, OCD id and state from a feature's properties, reading the
 * Census conventions where present (STATEFP, CDnnnFP, SLDUST/SLDLST, COUNTYFP, GEOID,
 * NAME, NAMELSAD) and `District` numbers (the Colorado commission files) with the state
 * taken from `options.state`.
 */
export function featureIdentity(props: Props, level: Level, options: IdentityOptions): IdentityResult {
  if (level === Level.LEVEL_NATIONAL) return nationalIdentity(props);
  const found = stateOf(props, options);
  if (!('state' in found)) return found;
  const { state } = found;
  switch (level) {
    case Level.LEVEL_STATE:
      return {
        identity: {
          slug: `region:${state.usps}`,
          name: prop(props, 'NAME') ?? state.name,
          fips: state.fips,
          ocdId: stateOcdId(state),
          state: state.usps,
        },
      };
    case Level.LEVEL_COUNTY:
      return countyFeature(props, state);
    case Level.LEVEL_CONGRESSIONAL_DISTRICT:
      return congressionalIdentity(props, state);
    case Level.LEVEL_STATE_LEGISLATIVE_UPPER:
    case Level.LEVEL_STATE_LEGISLATIVE_LOWER:
      return legislativeIdentity(props, state, level === Level.LEVEL_STATE_LEGISLATIVE_UPPER ? 'upper' : 'lower');
    default:
      return localIdentity(props, state, level, options);
  }
}

function nationalIdentity(props: Props): IdentityResult {
  return {
    identity: {
      slug: 'region:us',
      name: prop(props, 'NAME') ?? 'United States',
      fips: '',
      ocdId: 'ocd-division/country:us',
      state: '',
    },
  };
}

function countyFeature(props: Props, state: StateInfo): IdentityResult {
  const countyFp = prop(props, 'COUNTYFP', 'COUNTYFP20', 'COUNTYFP10');
  const fips = countyFp === undefined ? prop(props, 'GEOID', 'GEOID20') : state.fips + countyFp.padStart(3, '0');
  const name = prop(props, 'NAMELSAD', 'NAMELSAD20');
  const bare = prop(props, 'NAME', 'NAME20');
  if (fips === undefined || (name ?? bare) === undefined)
    return { code: 'no_district_code', reason: 'county without COUNTYFP/GEOID or NAME' };
  const identity = countyIdentity(state, fips, name ?? fullCountyName(state, fips, bare!));
  return { identity: { ...identity, fips, state: state.usps } };
}

/**
 * Congressional districts: `region:co-cd-1` (OCD `…/cd:1`); code `00` (at large) is
 * `region:ak-cd-at-large`, code `98` (the non-voting delegate of DC, or Puerto Rico's
 * resident commissioner) `region:dc-cd-delegate` — both OCD `…/cd:at-large`, as the
 * published ids have them. Code `ZZ` (water, no district) is skipped.
 */
function congressionalIdentity(props: Props, state: StateInfo): IdentityResult {
  const code = propMatching(props, /^CD\d{3}FP$/) ?? prop(props, 'CDFP', 'DISTRICT', 'District');
  if (code === undefined) return { code: 'no_district_code', reason: 'no district code (CDnnnFP, DISTRICT)' };
  const district = congressionalDistrict(state, code);
  if (district === undefined)
    return { code: 'not_a_district', reason: `district ${code}: area with no congressional district` };
  const padded = /^\d+$/.test(code) ? code.padStart(2, '0') : code;
  const label = prop(props, 'NAMELSAD', 'NAMELSAD20') ?? defaultCdLabel(padded, district.key);
  return {
    identity: {
      slug: district.slug,
      name: `${state.name} ${label}`,
      fips: prop(props, 'GEOID', 'GEOID20') ?? state.fips + padded,
      ocdId: district.ocdId,
      state: state.usps,
    },
  };
}

function defaultCdLabel(padded: string, key: string): string {
  if (padded === '00') return 'Congressional District (at Large)';
  if (padded === '98') return 'Delegate District (at Large)';
  return `Congressional District ${key}`;
}

/**
 * State legislative districts: `region:co-sldu-7` / `region:co-sldl-15` (OCD `…/sldu:7`),
 * numbers without leading zeros, named districts (`Chittenden-1`) by their slug key.
 * FIPS is the Census GEOID (state + 3-character district) when the file has one or the
 * district is numeric. Codes of Z's (no district) are skipped.
 */
function legislativeIdentity(props: Props, state: StateInfo, chamber: 'upper' | 'lower'): IdentityResult {
  const census = chamber === 'upper' ? ['SLDUST', 'SLDUST20', 'SLDUST10'] : ['SLDLST', 'SLDLST20', 'SLDLST10'];
  const code = prop(props, ...census, 'DISTRICT', 'District', 'district');
  if (code === undefined) return { code: 'no_district_code', reason: `no district code (${census[0]}, District)` };
  const district = legislativeDistrict(state, chamber, code);
  if (district === undefined)
    return { code: 'not_a_district', reason: `district ${code}: area with no legislative district` };
  const number = /^\d+$/.test(code) ? String(Number(code)) : code;
  const house = chamber === 'upper' ? 'State Senate' : 'State House';
  const fips = prop(props, 'GEOID', 'GEOID20') ?? (/^\d+$/.test(code) ? state.fips + code.padStart(3, '0') : '');
  return {
    identity: {
      slug: district.slug,
      name: `${state.name} ${prop(props, 'NAMELSAD', 'NAMELSAD20') ?? `${house} District ${number}`}`,
      fips,
      ocdId: district.ocdId,
      state: state.usps,
    },
  };
}

const LOCAL_TYPES: Partial<Record<Level, string>> = {
  [Level.LEVEL_PLACE]: 'place',
  [Level.LEVEL_SCHOOL_DISTRICT]: 'school_district',
  [Level.LEVEL_PRECINCT]: 'precinct',
};

/**
 * Places, school districts, precincts and anything else: `region:<st>-<slug key of the
 * name>` (precincts: `region:<st>-precinct-<code or name>`, since precinct names repeat
 * across counties), FIPS from GEOID, OCD `…/<type>:<key>` (best effort).
 */
function localIdentity(props: Props, state: StateInfo, level: Level, options: IdentityOptions): IdentityResult {
  const code = prop(
    props,
    ...(options.codeField === undefined ? [] : [options.codeField]),
    'GEOID',
    'GEOID20',
    'GEOID10',
    'PrecinctID',
  );
  const short = prop(
    props,
    ...(options.nameField === undefined ? [] : [options.nameField]),
    'NAME',
    'NAME20',
    'Name',
    'name',
    'Precinct',
  );
  const name = prop(props, 'NAMELSAD', 'NAMELSAD20') ?? short ?? code;
  if (name === undefined)
    return {
      code: 'no_name',
      reason: `no GEOID or NAME${options.codeField === undefined ? ' (name the code property with --code-field)' : ` and no ${options.codeField}`}`,
    };
  const type = LOCAL_TYPES[level] ?? 'division';
  const key = level === Level.LEVEL_PRECINCT ? `precinct-${slugKey(code ?? name)}` : slugKey(name);
  return {
    identity: {
      slug: `region:${state.usps}-${key}`,
      name,
      fips: code ?? '',
      ocdId: childOcdId(state, type, ocdKey(level === Level.LEVEL_PRECINCT ? (code ?? name) : (short ?? name))),
      state: state.usps,
    },
  };
}
