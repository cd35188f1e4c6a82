import type { StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Tier } from '../../model/kinds.js';
import { slugKey } from '../../model/slugs.js';
import { houseSeat, presidency, regularSenateClass, senateSeat, vicePresidency, type Seat } from '../shared/index.js';
import { regionOf } from '../shared/served-regions.js';
import { statedOffice } from '../shared/stated-offices.js';
import { isDangling, type FeedElement, type FeedIndex } from './feed-index.js';
import type { RegionPlan } from './regions.js';
import { child, intl, text } from './xml.js';

export interface OfficePlan {
  draft: PlainDraft<'office'>;
  /** The region the office serves. */
  region: RegionPlan;
  /** The office part of a contest slug for this office. */
  contestKey: string;
  /** True when the office's Term is `unexpired-term`: its contests are specials. */
  unexpired: boolean;
}

export interface OfficeContext {
  index: FeedIndex;
  state: StateInfo | undefined;
  year: number | undefined;
  districts: ReadonlyMap<string, RegionPlan | { problem: string }>;
}

const PRESIDENT = /^(the )?president( of the united states)?$/i;
const VICE_PRESIDENT = /^vice[- ]president( of the united states)?$/i;
const US_SENATOR = /\b(u\.?\s?s\.?|united states) senat/i;
const US_REPRESENTATIVE = /\b(representative|congress)/i;

/**
 * An Office as an office node of the region its ElectoralDistrict names. Federal seats go
 * through the shared seat rules (so the FEC, legislators and VIP importers state one node
 * per seat): President and Vice President, a U.S. Representative of a congressional
 * district, a U.S. Senator of a state (the class up in the election year; an unexpired
 * term's class is not in the feed, so that office is refused).
 */
export function officePlan(fe: FeedElement, ctx: OfficeContext): OfficePlan | { problem: string } {
  const name = intl(fe.el, 'Name');
  if (name === undefined) return { problem: `${fe.label}: an Office needs a Name` };
  const edId = text(fe.el, 'ElectoralDistrictId');
  if (edId === undefined) return { problem: `${fe.label}: an Office needs an ElectoralDistrictId` };
  const ed = ctx.index.resolve(fe, 'ElectoralDistrictId', edId, ['ElectoralDistrict']);
  if (isDangling(ed)) return ed;
  const region = ctx.districts.get(edId);
  if (region === undefined || 'problem' in region)
    return {
      problem: `${fe.label}: its ElectoralDistrict ${edId} has no region${region === undefined ? '' : ` (${region.problem})`}`,
    };
  const unexpired = (text(child(fe.el, 'Term') ?? {}, 'Type') ?? '').toLowerCase() === 'unexpired-term';
  const seat = federalSeat(name, region, ctx, unexpired);
  if (seat !== undefined && 'problem' in seat) return { problem: `${fe.label}: ${seat.problem}` };
  if (seat !== undefined) {
    const president = seat.office.slug === presidency().office.slug && region.level !== 'national';
    return {
      draft: seat.office,
      region: regionOf(seat.region),
      contestKey: president ? 'us-president' : seat.officeKey,
      unexpired,
    };
  }
  const key = slugKey(name);
  if (key === '') return { problem: `${fe.label}: Name "${name}" has no letters or digits to key the office by` };
  const tier = tierOf(name, region);
  return {
    draft: statedOffice(region, name, tier),
    region,
    contestKey: key,
    unexpired,
  };
}

function federalSeat(
  name: string,
  region: RegionPlan,
  ctx: OfficeContext,
  unexpired: boolean,
): Seat | { problem: string } | undefined {
  const trimmed = name.trim();
  if (PRESIDENT.test(trimmed)) return presidency();
  if (VICE_PRESIDENT.test(trimmed)) return vicePresidency();
  const state = ctx.state;
  if (state === undefined) return undefined;
  if (region.level === 'congressional-district' && US_REPRESENTATIVE.test(trimmed))
    return houseSeat(state, region.draft);
  if (region.level === 'state' && US_SENATOR.test(trimmed)) {
    if (unexpired) return { problem: 'a U.S. Senate seat for an unexpired term: the feed does not say which class' };
    if (ctx.year === undefined || ctx.year % 2 !== 0)
      return { problem: `no regular U.S. Senate election falls in ${ctx.year ?? 'an unknown year'}` };
    return senateSeat(state, regularSenateClass(ctx.year));
  }
  return undefined;
}

/** An office's (or a ballot question's) tier: courts are judicial, school boards school, else by the level of its region. */
export function tierOf(name: string, region: RegionPlan): Tier {
  if (/\b(court|judge|justice|magistrate)\b/i.test(name)) return 'judicial';
  if (/\bschool\b/i.test(name)) return 'school';
  switch (region.level) {
    case 'national':
      return 'federal';
    case 'county':
      return 'county';
    case 'place':
    case 'precinct':
      return 'municipal';
    case 'school-district':
      return 'school';
    default:
      return 'state';
  }
}
