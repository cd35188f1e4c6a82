import type { NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { ContestType } from '../../model/kinds.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { contestSlug, slugKey } from '../../model/slugs.js';
import { edge } from '../shared/index.js';
import type { ElectionPlan } from './election.js';
import { isDangling, type FeedElement, type FeedIndex } from './feed-index.js';
import { tierOf, type OfficePlan } from './offices.js';
import type { PartyPlan } from './parties.js';
import { personName } from './people.js';
import type { RegionPlan } from './regions.js';
import { idRefs, intl, text } from './xml.js';

/** A contest element's drafts: the contest, and the nodes and edges it points at. */
export interface ContestPlan {
  fe: FeedElement;
  draft: PlainDraft<'contest'>;
  /** Region references, offices and the election the contest's edges need. */
  nodes: NodeDraft[];
  edges: EdgeDoc[];
}

export interface ContestContext {
  index: FeedIndex;
  election: ElectionPlan;
  districts: ReadonlyMap<string, RegionPlan | { problem: string }>;
  offices: ReadonlyMap<string, OfficePlan | { problem: string }>;
  parties: ReadonlyMap<string, PartyPlan | { problem: string }>;
}

type Found = ContestPlan | { problem: string };

/** The contest elements the importer maps, with the contest type each implies. */
export const CONTEST_TYPES = ['CandidateContest', 'BallotMeasureContest', 'RetentionContest'] as const;

/**
 * A CandidateContest, BallotMeasureContest or RetentionContest as a contest node:
 * `contest:<region key>-<office key>-<year>-<type>`, held in the region its
 * ElectoralDistrict names, for its offices (none for a ballot measure), in the feed's
 * election. Its type is the election's, `special` when its office's term is unexpired,
 * `retention` for a retention; a primary contest for one party carries the party in its
 * key, since each party's primary for the same office is a contest of its own.
 */
export function contestPlan(fe: FeedElement, ctx: ContestContext): Found {
  const edId = text(fe.el, 'ElectoralDistrictId');
  if (edId === undefined) return { problem: `${fe.label}: a contest needs an ElectoralDistrictId` };
  const ed = ctx.index.resolve(fe, 'ElectoralDistrictId', edId, ['ElectoralDistrict']);
  if (isDangling(ed)) return ed;
  const region = ctx.districts.get(edId);
  if (region === undefined || 'problem' in region)
    return {
      problem: `${fe.label}: its ElectoralDistrict ${edId} has no region${region === undefined ? '' : ` (${region.problem})`}`,
    };
  const offices = officesOf(fe, ctx);
  if ('problem' in offices) return offices;
  const keyed = contestKeyOf(fe, offices, ctx);
  if ('problem' in keyed) return keyed;
  const { election } = ctx;
  const type: ContestType =
    fe.type === 'RetentionContest' ? 'retention' : offices.some((o) => o.unexpired) ? 'special' : election.type;
  const name = intl(fe.el, 'Name') ?? intl(fe.el, 'BallotTitle') ?? keyed.key;
  const seats = Number(text(fe.el, 'NumberElected') ?? '1');
  const office = offices[0];
  const draft: PlainDraft<'contest'> = {
    kind: 'contest',
    slug: contestSlug(region.key, keyed.key, election.year, type),
    state: region.draft.state,
    tier: office?.draft.tier ?? tierOf('', region),
    data: {
      name,
      type,
      date: election.date,
      year: election.year,
      level: region.level,
      region: region.draft.slug,
      office: office?.draft.slug ?? '',
      seats: Number.isInteger(seats) && seats > 0 ? seats : 1,
      special: type === 'special',
    },
  };
  const nodes: NodeDraft[] = [region.draft, election.draft, ...offices.flatMap((o) => [o.region.draft, o.draft])];
  const edges = [
    edge('IN_REGION', draft.slug, region.draft.slug),
    edge('IN_ELECTION', draft.slug, election.draft.slug),
    ...offices.flatMap((o) => [
      edge('FOR_OFFICE', draft.slug, o.draft.slug),
      edge('SERVES_REGION', o.draft.slug, o.region.draft.slug),
    ]),
  ];
  return { fe, draft, nodes, edges };
}

function officesOf(fe: FeedElement, ctx: ContestContext): OfficePlan[] | { problem: string } {
  const ids = fe.type === 'RetentionContest' ? idRefs(fe.el, 'OfficeId') : idRefs(fe.el, 'OfficeIds');
  const plans: OfficePlan[] = [];
  for (const id of ids) {
    const found = ctx.index.resolve(fe, fe.type === 'RetentionContest' ? 'OfficeId' : 'OfficeIds', id, ['Office']);
    if (isDangling(found)) return found;
    const plan = ctx.offices.get(id);
    if (plan === undefined || 'problem' in plan)
      return {
        problem: `${fe.label}: its Office ${id} is not imported${plan === undefined ? '' : ` (${plan.problem})`}`,
      };
    plans.push(plan);
  }
  return plans;
}

/** The office part of the contest's slug key. */
function contestKeyOf(
  fe: FeedElement,
  offices: readonly OfficePlan[],
  ctx: ContestContext,
): { key: string } | { problem: string } {
  const office = offices[0];
  if (fe.type === 'RetentionContest') {
    if (office === undefined) return { problem: `${fe.label}: a RetentionContest needs an OfficeId` };
    const judge = retainedName(fe, ctx);
    if ('problem' in judge) return judge;
    return { key: `${office.contestKey}-${slugKey(judge.name)}` };
  }
  const base = office?.contestKey ?? slugKey(intl(fe.el, 'Name') ?? intl(fe.el, 'BallotTitle') ?? '');
  if (base === '') return { problem: `${fe.label}: no office and no Name to key the contest by` };
  if (ctx.election.type !== 'primary') return { key: base };
  const parties: string[] = [];
  for (const id of idRefs(fe.el, 'PrimaryPartyIds')) {
    const found = ctx.index.resolve(fe, 'PrimaryPartyIds', id, ['Party']);
    if (isDangling(found)) return found;
    const plan = ctx.parties.get(id);
    const party = plan !== undefined && !('problem' in plan) ? plan.draft?.slug : undefined;
    if (party !== undefined) parties.push(party.slice('party:'.length));
  }
  return { key: [base, ...parties].join('-') };
}

/** The name of the judge a RetentionContest is about, through its CandidateId. */
export function retainedName(
  fe: FeedElement,
  ctx: Pick<ContestContext, 'index'>,
): { name: string; candidate: FeedElement } | { problem: string } {
  const id = text(fe.el, 'CandidateId');
  if (id === undefined) return { problem: `${fe.label}: a RetentionContest needs a CandidateId` };
  const candidate = ctx.index.resolve(fe, 'CandidateId', id, ['Candidate']);
  if (isDangling(candidate)) return candidate;
  const name = personName(candidate, ctx.index);
  return 'problem' in name ? name : { name: name.display, candidate };
}
