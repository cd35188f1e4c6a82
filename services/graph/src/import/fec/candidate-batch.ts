import { findState, slugKey } from '@civicgraph/kit';
import type { CandidacyDraft, DraftBatch, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { ContestType } from '../../model/kinds.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { candidacySlug, contestSlug, electionSlug, slug } from '../../model/slugs.js';
import { edge, sourcedBatch } from '../shared/batch.js';
import { generalElectionDay } from '../shared/dates.js';
import { houseSeat, presidency, senateSeat, type Seat } from '../shared/federal-offices.js';
import { partyDraft, partySlug } from '../shared/parties.js';
import { congressionalRegion, reference } from '../shared/regions.js';
import type { FecCandidate } from './candidate-row.js';
import { senateContest } from './senate.js';

export interface CandidateContext {
  cycle: number;
  provenance: PlainDraft<'provenance'>;
  /** CAND_ID → slug of a person another source owns (a sitting legislator). */
  personSlugs: ReadonlyMap<string, string>;
  senateSpecials: Readonly<Record<string, number>>;
}

/** What the batch of one row drafts, and the candidacy slug (for spotting a person listed twice in one contest). */
export interface CandidateDrafts {
  batch: DraftBatch;
  candidacy: string;
}

/**
 * One candidate row's drafts: the person, party, office and region (a reference), the
 * cycle's contest and election, and the candidacy with the FEC's claims.
 */
export function candidateDrafts(c: FecCandidate, ctx: CandidateContext): CandidateDrafts | { reason: string } {
  if (slugKey(c.name.display) === '') return { reason: `CAND_NAME "${c.name.display}" has no letters or digits to key the candidacy by` };
  const race = raceOf(c, ctx);
  if ('reason' in race) return race;
  const { seat, type } = race;
  const contest = contestDraft(seat, type, ctx.cycle);
  const election = electionDraft(seat, ctx.cycle);
  const person = personDraft(c, seat.office.state, ctx.personSlugs);
  const candidacy = candidacyDraft(c, contest, person.slug, ctx.provenance.slug);
  const party = 'party' in c.party ? partyDraft(c.party.party) : undefined;
  const nodes: NodeDraft[] = [ctx.provenance, person, ...(party === undefined ? [] : [party]), reference(seat.region), seat.office, election, contest, candidacy];
  const edges: EdgeDoc[] = [
    edge('SERVES_REGION', seat.office.slug, seat.region.slug),
    edge('IN_REGION', contest.slug, seat.region.slug),
    edge('FOR_OFFICE', contest.slug, seat.office.slug),
    edge('IN_ELECTION', contest.slug, election.slug),
    edge('FOR_CONTEST', candidacy.slug, contest.slug),
    edge('OF_PERSON', candidacy.slug, person.slug),
    ...(party === undefined ? [] : [edge('OF_PARTY', candidacy.slug, party.slug)]),
  ];
  return { batch: sourcedBatch(nodes, edges, ctx.provenance.slug), candidacy: candidacy.slug };
}

function raceOf(c: FecCandidate, ctx: CandidateContext): { seat: Seat; type: ContestType } | { reason: string } {
  if (c.office === 'P') return { seat: presidency(), type: 'general' };
  const state = c.state;
  if (state === undefined) return { reason: 'CAND_OFFICE_ST is empty' };
  if (c.office === 'S') {
    const senate = senateContest(state, ctx.cycle, ctx.senateSpecials);
    return 'reason' in senate ? senate : { seat: senateSeat(state, senate.senateClass), type: senate.type };
  }
  const district = congressionalRegion(state, c.district ?? '');
  return district === undefined ? { reason: `CAND_OFFICE_DISTRICT "${c.district}" names no district` } : { seat: houseSeat(state, district), type: 'general' };
}

/** `contest:co-cd-1-us-representative-2026-general`, held on the general election day. */
function contestDraft(seat: Seat, type: ContestType, year: number): PlainDraft<'contest'> {
  const special = type === 'special';
  return {
    kind: 'contest',
    slug: contestSlug(seat.regionKey, seat.officeKey, year, type),
    state: seat.office.state,
    tier: 'federal',
    data: {
      name: special ? `${seat.contestName}, special election` : seat.contestName,
      type,
      date: generalElectionDay(year),
      year,
      level: seat.office.data.level,
      region: seat.region.slug,
      office: seat.office.slug,
      seats: 1,
      special,
    },
  };
}

/**
 * The general election the contest is part of: one per state and election day
 * (`election:co-2026-11-03`), the nation's for President (`election:us-2028-11-07`).
 * Senate specials on that day belong to it too.
 */
function electionDraft(seat: Seat, year: number): PlainDraft<'election'> {
  const where = seat.office.state === '' ? 'us' : seat.office.state;
  const name = where === 'us' ? 'United States' : (findState(where)?.name ?? where.toUpperCase());
  return {
    kind: 'election',
    slug: electionSlug(where, generalElectionDay(year)),
    state: seat.office.state,
    tier: '',
    data: { name: `${year} ${name} general election`, date: generalElectionDay(year), type: 'general' },
  };
}

/** `person:fec-h8co02160`, or a reference to the person another source knows by this CAND_ID. */
function personDraft(c: FecCandidate, state: string, known: ReadonlyMap<string, string>): PlainDraft<'person'> {
  const draft: PlainDraft<'person'> = {
    kind: 'person',
    slug: known.get(c.id) ?? slug('person', `fec-${c.id.toLowerCase()}`),
    state,
    tier: '',
    data: { name: c.name.display, givenName: c.name.given, familyName: c.name.family, ids: { fec: [c.id] }, birthday: null, gender: null },
  };
  return known.has(c.id) ? reference(draft) : draft;
}

/**
 * `candidacy:<contest key>-<name key>`: keyed by the candidate's name, as the results
 * importer keys the candidacies its rows name. The FEC states the name, person, contest,
 * party (null for "no party"; no claim for unknown), incumbency (none when CAND_ICI is
 * empty) and that the candidate has FILED.
 */
function candidacyDraft(c: FecCandidate, contest: PlainDraft<'contest'>, person: string, provenance: string): CandidacyDraft {
  const claims: CandidacyDraft['claims'] = { name: c.name.display, person, contest: contest.slug, filingStatus: 'FILED' };
  if ('party' in c.party) claims.party = partySlug(c.party.party);
  else if ('none' in c.party) claims.party = null;
  if (c.ici !== '') claims.isIncumbent = c.ici === 'I';
  return {
    kind: 'candidacy',
    slug: candidacySlug(contest.slug.slice('contest:'.length), slugKey(c.name.display)),
    state: contest.state,
    tier: 'federal',
    claims,
    provenance,
  };
}
