import { findState, slugKey } from '@civicgraph/kit';
import type { CandidacyDraft, DraftBatch, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { candidacySlug, contestSlug, electionSlug, slug } from '../../model/slugs.js';
import { generalElectionDay } from '../shared/dates.js';
import { edge, sourcedBatch } from '../shared/batch.js';
import { houseSeat, presidency, senateSeat, type Seat } from '../shared/federal-offices.js';
import { partyDraft, partySlug } from '../shared/parties.js';
import { congressionalRegion, reference } from '../shared/regions.js';
import type { FecCandidate } from './candidate-row.js';
import { senateTermOn, type KnownCandidates, type SenateTerm } from './known-candidates.js';
import { senateContest } from './senate.js';

export interface CandidateContext {
  cycle: number;
  provenance: PlainDraft<'provenance'>;
  /** CAND_ID → the person another source owns (a sitting legislator) and the Senate terms they served. */
  known: KnownCandidates;
  senateSpecials: Readonly<Record<string, number>>;
}

/** What the batch of one row drafts, and the candidacy slug (for spotting a person listed twice in one contest). */
export interface CandidateDrafts {
  batch: DraftBatch;
  candidacy: string;
}

/**
 * One candidate row's drafts: the person, party, office and region (a reference), the
 * cycle's nomination contest for the seat and the declared candidacy in it. An FEC
 * registration says someone raised or spent money to run for a seat this cycle: it is a
 * declaration, not ballot access, so the candidacy is DECLARED in the seat's `primary`
 * contest (undated: the FEC does not know the state's primary day), never a candidacy on
 * the general election ballot, and it makes no ballot-access claim.
 */
export function candidateDrafts(c: FecCandidate, ctx: CandidateContext): CandidateDrafts | { reason: string } {
  if (slugKey(c.name.display) === '')
    return { reason: `CAND_NAME "${c.name.display}" has no letters or digits to key the candidacy by` };
  const race = raceOf(c, ctx);
  if ('reason' in race) return race;
  const { seat, special } = race;
  const contest = contestDraft(seat, special, ctx.cycle);
  const person = personDraft(c, seat.office.state, ctx.known, ctx.provenance.data.retrievedAt);
  const candidacy = candidacyDraft(c, contest, person.slug, ctx.provenance.slug);
  const party = 'party' in c.party ? partyDraft(c.party.party) : undefined;
  const general = seat.office.slug === presidency().office.slug ? [] : generalDrafts(seat, special, ctx.cycle);
  const nodes: NodeDraft[] = [
    ctx.provenance,
    person,
    ...(party === undefined ? [] : [party]),
    reference(seat.region),
    seat.office,
    contest,
    ...general.flatMap((g) => g.nodes),
    candidacy,
  ];
  const edges: EdgeDoc[] = [
    edge('SERVES_REGION', seat.office.slug, seat.region.slug),
    edge('IN_REGION', contest.slug, seat.region.slug),
    edge('FOR_OFFICE', contest.slug, seat.office.slug),
    ...general.flatMap((g) => g.edges),
    edge('FOR_CONTEST', candidacy.slug, contest.slug),
    edge('OF_PERSON', candidacy.slug, person.slug),
    ...(party === undefined ? [] : [edge('OF_PARTY', candidacy.slug, party.slug)]),
  ];
  return { batch: sourcedBatch(nodes, edges, ctx.provenance.slug), candidacy: candidacy.slug };
}

function raceOf(c: FecCandidate, ctx: CandidateContext): { seat: Seat; special: boolean } | { reason: string } {
  if (c.office === 'P') return { seat: presidency(), special: false };
  const state = c.state;
  if (state === undefined) return { reason: 'CAND_OFFICE_ST is empty' };
  if (c.office === 'S') {
    const held = senateTermOn(ctx.known.get(c.id), generalElectionDay(ctx.cycle));
    const notUp = seatNotUp(c.id, held, ctx);
    if (notUp !== undefined) return notUp;
    const senate = senateContest(
      state,
      ctx.cycle,
      ctx.senateSpecials,
      held?.state === state.usps ? held.senateClass : undefined,
    );
    return 'reason' in senate
      ? senate
      : { seat: senateSeat(state, senate.senateClass), special: senate.type === 'special' };
  }
  const district = congressionalRegion(state, c.district ?? '');
  return district === undefined
    ? { reason: `CAND_OFFICE_DISTRICT "${c.district}" names no district` }
    : { seat: houseSeat(state, district), special: false };
}

/**
 * A sitting senator's committee files every cycle, but their seat is elected only with its
 * class: a registration by a senator whose term on this cycle's election day runs past it is
 * for a later cycle, not a candidacy now (Michael Bennet in 2026: class 3, term to 2029).
 */
function seatNotUp(id: string, held: SenateTerm | undefined, ctx: CandidateContext): { reason: string } | undefined {
  // The seat elected this cycle is the one whose term ends when the next Congress meets.
  if (held === undefined || held.end <= `${ctx.cycle + 1}-01-03`) return undefined;
  // An appointee's seat is elected at the special that ends the appointment (Ricketts, 2024).
  if (ctx.senateSpecials[held.state] === held.senateClass) return undefined;
  return {
    reason: `CAND_ID ${id} is the sitting senator for ${held.state.toUpperCase()}'s class ${held.senateClass} seat, whose term runs to ${held.end}: the seat is not elected in ${ctx.cycle}, so the registration is not a ${ctx.cycle} candidacy`,
  };
}

/**
 * The seat's general (or special) election contest on the cycle's election day, with no
 * candidacy: a seat someone registers for this cycle is elected this cycle, so the contest
 * is on that day's ballot; who is on it comes from official candidate lists and certified
 * results. A reference: those sources own the contest. (The presidency is left out: each
 * state's presidential contest is the state's own.)
 */
function generalDrafts(seat: Seat, special: boolean, year: number): { nodes: NodeDraft[]; edges: EdgeDoc[] }[] {
  const type = special ? 'special' : 'general';
  const day = generalElectionDay(year);
  const slugText = contestSlug(seat.regionKey, seat.officeKey, year, type);
  const state = findState(seat.office.state);
  const election: PlainDraft<'election'> = {
    kind: 'election',
    slug: electionSlug(seat.office.state, day),
    state: seat.office.state,
    tier: '',
    data: {
      name: `${year} ${state?.name ?? seat.office.state.toUpperCase()} general election`,
      date: day,
      type: 'general',
    },
  };
  const contest: PlainDraft<'contest'> = {
    kind: 'contest',
    slug: slugText,
    state: seat.office.state,
    tier: 'federal',
    data: {
      name: special ? `${seat.contestName}, special election` : seat.contestName,
      type,
      date: day,
      year,
      level: seat.office.data.level,
      region: seat.region.slug,
      office: seat.office.slug,
      seats: 1,
      special,
    },
  };
  return [
    {
      nodes: [reference(election), reference(contest)],
      edges: [
        edge('IN_REGION', slugText, seat.region.slug),
        edge('FOR_OFFICE', slugText, seat.office.slug),
        edge('IN_ELECTION', slugText, election.slug),
      ],
    },
  ];
}

/** `contest:co-cd-1-us-representative-2026-primary`: the seat's nomination in the cycle, its day not known from the FEC. */
function contestDraft(seat: Seat, special: boolean, year: number): PlainDraft<'contest'> {
  return {
    kind: 'contest',
    slug: contestSlug(seat.regionKey, seat.officeKey, year, 'primary'),
    state: seat.office.state,
    tier: 'federal',
    data: {
      name: `${seat.contestName}, ${year} ${special ? 'special election ' : ''}primary`,
      type: 'primary',
      date: '',
      year,
      level: seat.office.data.level,
      region: seat.region.slug,
      office: seat.office.slug,
      seats: 1,
      special,
    },
  };
}

/** `person:fec-h8co02160` as of the file's date, or a reference to the person another source knows by this CAND_ID. */
function personDraft(c: FecCandidate, state: string, known: KnownCandidates, asOf: string): PlainDraft<'person'> {
  const other = known.get(c.id)?.person;
  const draft: PlainDraft<'person'> = {
    kind: 'person',
    slug: other ?? slug('person', `fec-${c.id.toLowerCase()}`),
    state,
    tier: '',
    data: {
      name: c.name.display,
      givenName: c.name.given,
      familyName: c.name.family,
      ids: { fec: [c.id] },
      birthday: null,
      gender: null,
      asOf,
    },
  };
  return other === undefined ? draft : reference(draft);
}

/**
 * `candidacy:<contest key>-<name key>`. The FEC states the name, person, contest, party
 * (null for "no party"; no claim for unknown), incumbency (none when CAND_ICI is empty)
 * and that the candidate has DECLARED: registering with the FEC is not filing with the
 * state for a place on a ballot.
 */
function candidacyDraft(
  c: FecCandidate,
  contest: PlainDraft<'contest'>,
  person: string,
  provenance: string,
): CandidacyDraft {
  const claims: CandidacyDraft['claims'] = {
    name: c.name.display,
    person,
    contest: contest.slug,
    filingStatus: 'DECLARED',
  };
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
