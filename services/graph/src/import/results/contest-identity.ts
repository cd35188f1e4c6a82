import type { StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Tier } from '../../model/kinds.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { edge } from '../shared/batch.js';
import {
  countyDistrictRegion,
  judicialDistrictRegion,
  specialDistrictRegion,
  wardRegion,
} from '../shared/local-regions.js';
import { slugKey } from '../../model/slugs.js';
import {
  houseSeat,
  KNOWN_SENATE_SPECIALS,
  nationalRegion,
  presidency,
  reference,
  regularSenateClass,
  senateSeat,
  type Seat,
} from '../shared/index.js';
import { regionOf, stateOf, titleCase, type ServedRegion } from '../shared/served-regions.js';
import { legislatorTitle, statedOffice } from '../shared/stated-offices.js';
import type { ContestKeyFields } from './medsl-row.js';
import {
  congressionalOf,
  countyOf,
  isAtLarge,
  isStatewide,
  legislativeOf,
  placePrefix,
  type Containment,
} from './regions.js';

export type ContestKind = 'candidate' | 'measure' | 'retention';

/** Where a contest is held, what it fills, and what to call it. */
export interface ContestIdentity {
  region: ServedRegion;
  /** null for a ballot question, which fills no office. */
  office: PlainDraft<'office'> | null;
  /** Reference drafts of every region the contest and its office point at. */
  regions: PlainDraft<'region'>[];
  /** What the contest's region lies within (a council district in its county, a city in its county). */
  within: EdgeDoc[];
  /** The office part of the contest slug: the office key, or the question's key, plus the judge for a retention. */
  contestKey: string;
  name: string;
  tier: Tier;
}

export interface ContestQuestion {
  key: ContestKeyFields;
  dataverse: string;
  kind: ContestKind;
  /** The judge named by retention rows (`DINNEL - YES`); null otherwise. */
  judge: string | null;
}

type Found = ContestIdentity | { problem: string };

const JUDICIAL = /\b(COURT|JUDGE|JUSTICE|MAGISTRATE)\b/;

/**
 * Works out a contest's region and office from MEDSL's `office` and `district` text.
 * Federal seats through the shared seat rules (so the FEC, legislators and results
 * importers draft one office node per seat); state legislative seats; statewide offices;
 * offices prefixed by a county (`ADAMS COUNTY COURT JUDGE`) or a known place
 * (`WILMINGTON MAYOR`); judicial districts, a county's or a city's council districts and
 * special (transit) districts, each a region of its own level. A district that fits none is
 * refused with a reason rather than pinned to a larger region: a contest on the wrong region
 * shows on the wrong ballots.
 */
export function identifyContest(q: ContestQuestion): Found {
  const { state, office, district } = q.key;
  if (q.kind === 'measure') return measure(q);
  switch (office) {
    case 'US PRESIDENT':
    case 'PRESIDENT':
      return president(state, district);
    case 'US SENATE':
      return senate(q);
    case 'US HOUSE': {
      const region = congressionalOf(state, district);
      if (region === undefined)
        return { problem: `US HOUSE district "${district}" is not a district number or AT-LARGE` };
      return fromSeat(houseSeat(state, region));
    }
    case 'STATE SENATE':
    case 'STATE HOUSE': {
      const region = legislativeOf(state, office === 'STATE SENATE' ? 'upper' : 'lower', district);
      if (region === undefined) return { problem: `${office} district "${district}" is not a district number` };
      return stated(region, legislatorTitle(office === 'STATE SENATE' ? 'upper' : 'lower'), 'state');
    }
    default:
      return otherOffice(q);
  }
}

function fromSeat(seat: Seat): ContestIdentity {
  const region = regionOf(seat.region);
  return {
    region,
    office: seat.office,
    regions: [region.draft],
    within: [],
    contestKey: seat.officeKey,
    name: seat.contestName,
    tier: 'federal',
  };
}

/**
 * A state's presidential contest (its electors): `contest:co-us-president-2024-general`,
 * held in the state, for the one national office `office:us-president`.
 */
function president(state: StateInfo, district: string): Found {
  if (!isStatewide(district))
    return { problem: `US PRESIDENT with district "${district}": expected STATEWIDE or empty` };
  const seat = presidency();
  const region = stateOf(state);
  return {
    region,
    office: seat.office,
    regions: [region.draft, reference(nationalRegion())],
    within: [],
    contestKey: 'us-president',
    name: `${seat.office.data.name}, ${state.name}`,
    tier: 'federal',
  };
}

/**
 * A regular Senate election fills the seat of the class up that year (class 1 in 2024). A
 * special election fills the seat KNOWN_SENATE_SPECIALS names for its year (MEDSL does not
 * say which); one it does not name is refused rather than guessed.
 */
function senate(q: ContestQuestion): Found {
  const { state, district, year, special } = q.key;
  if (!isStatewide(district)) return { problem: `US SENATE with district "${district}": expected STATEWIDE or empty` };
  if (special) {
    const seatClass = KNOWN_SENATE_SPECIALS[year]?.[state.usps];
    if (seatClass === undefined)
      return {
        problem: `special US SENATE election: the file does not say which seat (class) it fills, and no ${state.name} special of ${year} is known, so it is not imported`,
      };
    const seat = senateSeat(state, seatClass);
    // Named as the FEC importer names the same contest, so neither overwrites the other.
    return { ...fromSeat(seat), name: `${seat.contestName}, special election` };
  }
  if (year % 2 !== 0)
    return { problem: `US SENATE general in odd year ${year}: no regular Senate election falls then` };
  return fromSeat(senateSeat(state, regularSenateClass(year)));
}

/**
 * Colorado elects its State Board of Education and CU Regents from the congressional
 * districts (Colo. Const. art. IX sec. 1 and 12; C.R.S. 22-2-105, 23-20-102), one member
 * at large when the district count is even: MEDSL's district numbers are the CD numbers.
 */
const BY_CONGRESSIONAL_DISTRICT: Readonly<Record<string, ReadonlySet<string>>> = {
  co: new Set(['STATE BOARD OF EDUCATION', 'REGENT OF THE UNIVERSITY OF COLORADO']),
};

function otherOffice(q: ContestQuestion): Found {
  const { state, office, district } = q.key;
  const bare = office.replace(/ RETENTION$/, '');
  if (BY_CONGRESSIONAL_DISTRICT[state.usps]?.has(bare) === true && !isStatewide(district) && !isAtLarge(district)) {
    const cd = congressionalOf(state, district);
    if (cd === undefined) return { problem: `${office} district "${district}" is not a district number` };
    return local(q, regionOf(cd), bare, 'state');
  }
  const judicial = judicialDistrictRegion(state, district);
  if (judicial !== undefined) return local(q, regionOf(judicial), bare, 'judicial');
  const special = /^(.+ DISTRICT) DIRECTOR$/.exec(bare);
  const director = special === null ? undefined : specialDistrictRegion(state, special[1]!, district);
  if (director !== undefined) return local(q, regionOf(director), bare, 'special');
  const county = /^(.+?) COUNTY (.+)$/.exec(bare);
  if (county !== null) {
    const officeText = county[2]!.startsWith('COURT') ? `COUNTY ${county[2]}` : county[2]!;
    const where = countyOf(state, county[1]!);
    return inDistrictOf(q, where, officeText, 'county', (d) => countyDistrictRegion(state, where.draft, d), {
      edges: [],
      regions: [],
    });
  }
  const place = placePrefix(state, bare);
  if (place !== undefined)
    return inDistrictOf(
      q,
      place.region,
      place.rest,
      'municipal',
      (d) => wardRegion(state, place.region.name, d),
      place.within,
    );
  if (isStatewide(district) || isAtLarge(district)) {
    if (district === '' && q.dataverse === 'LOCAL')
      return { problem: `local office "${office}" names no county or place: its region is unknown` };
    return local(q, stateOf(state), withoutStateName(bare, state), 'state');
  }
  return noLevel(office, district);
}

/**
 * An office of a county or city: at large (the county or city itself), or of one of its
 * numbered council districts, which lies within it.
 */
function inDistrictOf(
  q: ContestQuestion,
  parent: ServedRegion,
  officeText: string,
  tier: Tier,
  districtOf: (district: string) => PlainDraft<'region'> | undefined,
  parentWithin: Containment,
): Found {
  const { office, district } = q.key;
  if (isStatewide(district) || isAtLarge(district)) {
    const found = local(q, parent, officeText, tier);
    return { ...found, regions: [...found.regions, ...parentWithin.regions], within: parentWithin.edges };
  }
  const draft = districtOf(district);
  if (draft === undefined) return noLevel(office, district);
  const found = local(q, regionOf(draft), officeText, tier);
  return {
    ...found,
    regions: [...found.regions, parent.draft, ...parentWithin.regions],
    within: [edge('WITHIN', draft.slug, parent.draft.slug), ...parentWithin.edges],
  };
}

function noLevel(office: string, district: string): { problem: string } {
  return {
    problem: `${office} district "${district}": no rule names the region of such a district, so the contest is not imported`,
  };
}

/** An office of a region; at-large seats (`AT-LARGE`, `AT LARGE`) are offices apart from district seats. */
function local(q: ContestQuestion, region: ServedRegion, officeName: string, tier: Tier): ContestIdentity {
  const text = isAtLarge(q.key.district) ? `${officeName} AT-LARGE` : officeName;
  const contest = stated(region, titleCase(text), JUDICIAL.test(text) ? 'judicial' : tier);
  if (q.kind !== 'retention') return contest;
  const judge = q.judge === null ? '' : ` ${titleCase(q.judge)}`;
  return {
    ...contest,
    contestKey: q.judge === null ? contest.contestKey : `${contest.contestKey}-${slugKey(q.judge)}`,
    name: `Retention of ${contest.office!.data.name}${judge}, ${region.name}`,
  };
}

/** An office the results importer states (not a federal seat): `office:<region key>-<slug key of its name>`. */
function stated(region: ServedRegion, name: string, tier: Tier): ContestIdentity {
  const office = statedOffice(region, name, tier);
  return {
    region,
    office,
    regions: [region.draft],
    within: [],
    contestKey: slugKey(name),
    name: `${name}, ${region.name}`,
    tier,
  };
}

/** A ballot question: held in the state, or in the county its title names. */
function measure(q: ContestQuestion): Found {
  const { state, office, district } = q.key;
  const county = /^(.+?) COUNTY (.+)$/.exec(office);
  const region = county !== null ? countyOf(state, county[1]!) : isStatewide(district) ? stateOf(state) : undefined;
  if (region === undefined) return noLevel(office, district);
  if (county === null && district === '' && q.dataverse === 'LOCAL')
    return { problem: `local ballot question "${office}" names no county or place: its region is unknown` };
  const text = county !== null ? county[2]! : office;
  return {
    region,
    office: null,
    regions: [region.draft],
    within: [],
    contestKey: slugKey(text),
    name: `${titleCase(text)}, ${region.name}`,
    tier: region.level === 'county' ? 'county' : 'state',
  };
}

/** `COLORADO SUPREME COURT JUSTICE` → `SUPREME COURT JUSTICE`: the state is in the slug already. */
function withoutStateName(office: string, state: StateInfo): string {
  const prefix = `${state.name.toUpperCase()} `;
  return office.startsWith(prefix) ? office.slice(prefix.length) : office;
}
