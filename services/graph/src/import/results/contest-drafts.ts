import type { ContestType } from '../../model/kinds.js';
import type { EdgeDoc, ResultData } from '../../model/nodes.js';
import { contestSlug, electionSlug, resultSlug } from '../../model/slugs.js';
import type { DraftBatch, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import { edge, sourcedBatch } from '../shared/index.js';
import { candidacyDrafts, type PersonMatcher } from './candidacy-drafts.js';
import type { ContestIdentity } from './contest-identity.js';
import type { ResultsSource } from './provenance.js';
import type { TalliedContest } from './tally.js';
import { candidateWinners, passRule, questionOutcome } from './winners.js';

/**
 * Everything one contest's returns say: the election day, the office, the contest, the
 * candidacy of each candidate on its ballot (candidacy-drafts.ts) and one `result` per
 * choice (votes, share of the contest's votes for any choice, winner, RESULT_FOR its
 * candidacy), tied by edges, every stated node citing the file's provenance. Regions are
 * reference drafts.
 */
export function contestBatch(
  t: TalliedContest,
  id: ContestIdentity,
  source: ResultsSource,
  match: PersonMatcher,
): DraftBatch {
  const state = t.key.state.usps;
  const provenance = source.draft.slug;
  const type = contestType(t);
  const contest = contestSlug(id.region.key, id.contestKey, t.key.year, type);
  const contestKey = contest.slice('contest:'.length);
  const election = electionDraft(t);

  const nodes: NodeDraft[] = [source.draft, ...id.regions, election];
  const edges: EdgeDoc[] = [
    edge('IN_REGION', contest, id.region.draft.slug),
    edge('IN_ELECTION', contest, election.slug),
    ...id.within,
  ];
  if (id.office !== null) {
    nodes.push(id.office);
    edges.push(
      edge('SERVES_REGION', id.office.slug, id.office.data.region),
      edge('FOR_OFFICE', contest, id.office.slug),
    );
  }
  nodes.push({
    kind: 'contest',
    slug: contest,
    state,
    tier: id.tier,
    data: {
      name: id.name,
      type,
      date: t.date,
      year: t.key.year,
      level: id.region.level,
      region: id.region.draft.slug,
      office: id.office?.slug ?? '',
      seats: t.seats,
      special: t.key.special,
    },
  });
  const officeRegionKey = (id.office?.data.region ?? id.region.draft.slug).slice('region:'.length);
  const candidacies = new Map<string, string>();
  for (const c of t.choices) {
    if (c.choice.kind !== 'candidate') continue;
    const drafts = candidacyDrafts(
      { ...c, choice: c.choice },
      { slug: contest, key: contestKey, state, tier: id.tier },
      officeRegionKey,
      provenance,
      match,
    );
    nodes.push(...drafts.nodes);
    edges.push(...drafts.edges);
    candidacies.set(c.choice.key, drafts.candidacy);
  }
  for (const result of resultData(t, contest, candidacies, source)) {
    const slug = resultSlug(contestKey, result.key);
    nodes.push({ kind: 'result', slug, state, tier: id.tier, data: result.data });
    if (result.data.candidacy !== '') edges.push(edge('RESULT_FOR', slug, result.data.candidacy));
  }
  return sourcedBatch(nodes, edges, provenance);
}

/** The state's election day, named as the FEC importer names it (`2024 Colorado general election`), so neither overwrites the other. */
function electionDraft(t: TalliedContest): PlainDraft<'election'> {
  const { state, year, stage } = t.key;
  return {
    kind: 'election',
    slug: electionSlug(state.usps, t.date),
    state: state.usps,
    tier: '',
    data: { name: `${year} ${state.name} ${stage} election`, date: t.date, type: stage },
  };
}

function contestType(t: TalliedContest): ContestType {
  return t.kind === 'retention' ? 'retention' : t.key.special ? 'special' : t.key.stage;
}

/** Each choice's result: share of all the contest's votes for any choice, and the winner flag. */
function resultData(
  t: TalliedContest,
  contest: string,
  candidacies: ReadonlyMap<string, string>,
  source: ResultsSource,
): { key: string; data: ResultData }[] {
  const total = t.choices.reduce((sum, c) => sum + c.votes, 0);
  const winners = winnerFlags(t);
  const certified = t.certified ?? source.certifiedWhenUnsaid;
  return t.choices.map((c) => ({
    key: c.choice.key,
    data: {
      contest,
      candidacy: candidacies.get(c.choice.key) ?? '',
      choice: c.label,
      party: c.party,
      votes: c.votes,
      share: total === 0 ? null : c.votes / total,
      totalVotes: total,
      certified,
      winner: winners.get(c.choice.key) ?? null,
    },
  }));
}

function winnerFlags(t: TalliedContest): Map<string, boolean | null> {
  if (t.kind === 'candidate') {
    return candidateWinners(
      t.choices.map((c) => ({ key: c.choice.key, votes: c.votes, aggregate: c.choice.kind === 'aggregate' })),
      t.seats,
    );
  }
  const votes = (kind: 'yes' | 'no') =>
    t.choices.filter((c) => c.choice.kind === kind).reduce((s, c) => s + c.votes, 0);
  const outcome = questionOutcome(
    votes('yes'),
    votes('no'),
    passRule(t.key.state.usps, t.key.office, t.kind === 'retention'),
  );
  return new Map([
    ['yes', outcome.yes],
    ['no', outcome.no],
  ]);
}
