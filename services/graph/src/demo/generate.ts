import { seededRandom } from '@civicgraph/kit';
import type { CandidacyDraft, DraftBatch, NodeDraft } from '../domain/drafts.js';
import type { ContestType, Level, Tier } from '../model/kinds.js';
import type { EdgeDoc, FieldValue, ProvenanceData } from '../model/nodes.js';
import { candidacySlug, contestSlug, electionSlug, officeSlug, parseSlug, slug, slugKey } from '../model/slugs.js';
import { edge } from '../import/shared/batch.js';
import { junePrimaryDay, surroundingGenerals } from './calendar.js';
import { personName, pick } from './names.js';

/**
 * The demo dataset `civicgraph up` loads when no real data has been imported: real
 * geography (the regions passed in, from us-atlas and whatever boundary files are loaded)
 * with invented elections, contests, candidacies, results and officeholders over it.
 * Everything invented cites a provenance record whose method is `synthetic`, so its
 * confidence is low and nobody mistakes it for real data. Deterministic for a seed and a day.
 */
export interface DemoRegion {
  slug: string;
  name: string;
  level: Level;
  /** Lowercase USPS code; '' for national. */
  state: string;
  fips: string;
  ocdId: string;
}

export interface DemoOptions {
  regions: readonly DemoRegion[];
  /** YYYY-MM-DD: elections before it are past (with results), after it upcoming. */
  today: string;
  seed?: number;
  /** Counties per state that get county contests (default 3). */
  countiesPerState?: number;
}

/** Three readings of the synthetic registry of different ages: their decay spreads confidence. */
const REGISTRIES = [
  { slug: 'provenance:demo-synthetic-registry', daysAgo: 3 },
  { slug: 'provenance:demo-synthetic-registry-2025', daysAgo: 250 },
  { slug: 'provenance:demo-synthetic-registry-2024', daysAgo: 600 },
] as const;
/** Every demo dataset holds this provenance record: a graph with it holds synthetic data. */
export const DEMO_MARKER = 'provenance:demo-synthetic-survey';
const SURVEY = DEMO_MARKER;
const PARTIES = [
  { key: 'democratic', name: 'Democratic Party', abbreviation: 'DEM' },
  { key: 'republican', name: 'Republican Party', abbreviation: 'REP' },
  { key: 'libertarian', name: 'Libertarian Party', abbreviation: 'LIB' },
  { key: 'green', name: 'Green Party', abbreviation: 'GRE' },
  { key: 'independent', name: 'Independent', abbreviation: 'IND' },
] as const;
const ISSUES = ['housing', 'transit', 'water', 'schools', 'public-safety', 'taxes', 'broadband', 'wildfire'] as const;
const STANCES = ['supports', 'opposes', 'undecided'] as const;

interface Seat {
  region: DemoRegion;
  officeKey: string;
  officeName: string;
  tier: Tier;
  /** Years a term lasts. */
  term: number;
}

/** Every batch of the demo dataset, in an order the writer can apply one by one. */
export function* generateDemo(options: DemoOptions): Generator<DraftBatch> {
  const rand = seededRandom(options.seed ?? 2026);
  const drafted: CandidacyDraft[] = [];
  const keep = (batch: DraftBatch): DraftBatch => {
    for (const n of batch.nodes) if (n.kind === 'candidacy') drafted.push(n);
    return batch;
  };
  const { past, next } = surroundingGenerals(options.today);
  const states = options.regions.filter((r) => r.level === 'state');
  yield foundation(options);
  for (const state of states) {
    const seats = seatsOf(state, options);
    const elections = [
      { date: past, type: 'general' as const },
      { date: junePrimaryDay(Number(next.slice(0, 4))), type: 'primary' as const },
      { date: next, type: 'general' as const },
    ];
    // One batch per state and election day: few, large commits load fast.
    for (const e of elections) {
      const batch: DraftBatch = { nodes: [electionNode(state, e.date, e.type)], edges: [] };
      for (const seat of seats) {
        const contest = contestBatch(seat, e.date, e.type, e.date < options.today, rand);
        batch.nodes.push(...contest.nodes);
        batch.edges.push(...contest.edges);
      }
      yield keep(batch);
    }
  }
  const us = options.regions.find((r) => r.level === 'national') ?? US;
  for (const date of [past, next]) {
    if (Number(date.slice(0, 4)) % 4 !== 0) continue;
    yield { nodes: [electionNode(us, date, 'general')], edges: [] };
    yield keep(
      contestBatch(
        {
          region: us,
          officeKey: 'us-president',
          officeName: 'President of the United States',
          tier: 'federal',
          term: 4,
        },
        date,
        'general',
        date < options.today,
        rand,
      ),
    );
  }
  yield* secondOpinions(drafted, rand);
}

const US: DemoRegion = {
  slug: 'region:us',
  name: 'United States',
  level: 'national',
  state: '',
  fips: '',
  ocdId: 'ocd-division/country:us',
};

function foundation(options: DemoOptions): DraftBatch {
  const retrieved = (daysAgo: number) =>
    new Date(Date.parse(`${options.today}T12:00:00Z`) - daysAgo * 86_400_000).toISOString();
  const provenance = (key: string, data: Omit<ProvenanceData, 'method' | 'licence' | 'publisher'>): NodeDraft => ({
    kind: 'provenance',
    slug: key,
    state: '',
    tier: '',
    data: { ...data, method: 'synthetic', publisher: 'civicgraph demo generator', licence: 'CC0-1.0' },
  });
  const nodes: NodeDraft[] = [
    ...REGISTRIES.map((r, i) =>
      provenance(r.slug, {
        source: `civicgraph synthetic registry, edition ${i + 1}`,
        url: 'https://github.com/civicgraph/civicgraph#demo-data',
        retrievedAt: retrieved(r.daysAgo),
      }),
    ),
    provenance(SURVEY, {
      source: 'civicgraph synthetic survey',
      url: 'https://github.com/civicgraph/civicgraph#demo-data',
      retrievedAt: retrieved(700),
    }),
    ...PARTIES.map((p): NodeDraft => ({
      kind: 'party',
      slug: `party:${p.key}`,
      state: '',
      tier: '',
      data: { name: p.name, abbreviation: p.abbreviation },
    })),
    ...[US, ...options.regions.filter((r) => r.slug !== US.slug)].map((r): NodeDraft => ({
      kind: 'region',
      slug: r.slug,
      state: r.state,
      tier: '',
      data: { name: r.name, level: r.level, fips: r.fips, ocdId: r.ocdId, aliases: [], population: null },
    })),
  ];
  const edges: EdgeDoc[] = options.regions
    .filter((r) => r.level !== 'state' && r.level !== 'national' && r.state !== '')
    .map((r) => ({ kind: 'WITHIN', from: r.slug, to: `region:${r.state}`, key: '', data: {} }));
  return { nodes, edges };
}

function seatsOf(state: DemoRegion, options: DemoOptions): Seat[] {
  const inState = options.regions.filter((r) => r.state === state.state);
  const counties = inState.filter((r) => r.level === 'county').slice(0, options.countiesPerState ?? 3);
  const districts = inState.filter((r) => r.level === 'congressional-district');
  return [
    { region: state, officeKey: 'us-senator', officeName: 'U.S. Senator', tier: 'federal', term: 6 },
    { region: state, officeKey: 'governor', officeName: 'Governor', tier: 'state', term: 4 },
    ...districts.map((d): Seat => ({
      region: d,
      officeKey: 'us-representative',
      officeName: 'U.S. Representative',
      tier: 'federal',
      term: 2,
    })),
    ...counties.flatMap((c): Seat[] => [
      { region: c, officeKey: 'county-commissioner', officeName: 'County Commissioner', tier: 'county', term: 4 },
      { region: c, officeKey: 'sheriff', officeName: 'Sheriff', tier: 'county', term: 4 },
    ]),
  ];
}

function regionKey(r: DemoRegion): string {
  return parseSlug(r.slug)!.key;
}

function electionNode(region: DemoRegion, date: string, type: ContestType): NodeDraft {
  const scope = region.state === '' ? 'us' : region.state;
  return {
    kind: 'election',
    slug: electionSlug(scope, date),
    state: region.state,
    tier: '',
    data: {
      name: `${region.name} ${type === 'primary' ? 'Primary' : 'General'} Election ${date.slice(0, 4)} (demo)`,
      date,
      type,
    },
  };
}

/** One contest with its office, candidacies, people, positions and, when past, results and the winner's term. */
function contestBatch(seat: Seat, date: string, type: ContestType, past: boolean, rand: () => number): DraftBatch {
  const year = Number(date.slice(0, 4));
  const rKey = regionKey(seat.region);
  const contest = contestSlug(rKey, seat.officeKey, year, type);
  const contestKey = parseSlug(contest)!.key;
  const office = officeSlug(rKey, seat.officeKey);
  const scope = seat.region.state === '' ? 'us' : seat.region.state;
  const election = electionSlug(scope, date);
  const { state } = seat.region;
  const nodes: NodeDraft[] = [
    {
      kind: 'office',
      slug: office,
      state,
      tier: seat.tier,
      data: { name: seat.officeName, level: seat.region.level, tier: seat.tier, region: seat.region.slug },
    },
    {
      kind: 'contest',
      slug: contest,
      state,
      tier: seat.tier,
      data: {
        name: `${seat.officeName}, ${seat.region.name} (${type} ${year}, demo)`,
        type,
        date,
        year,
        level: seat.region.level,
        region: seat.region.slug,
        office,
        seats: 1,
        special: false,
      },
    },
  ];
  const edges: EdgeDoc[] = [
    edge('IN_REGION', contest, seat.region.slug),
    edge('FOR_OFFICE', contest, office),
    edge('IN_ELECTION', contest, election),
    edge('SERVES_REGION', office, seat.region.slug),
  ];
  const count = 2 + Math.floor(rand() * 3);
  const candidates = Array.from({ length: count }, (_, i) => candidate(seat, contestKey, i, past, rand));
  for (const c of candidates) {
    nodes.push(...c.nodes);
    edges.push(...c.edges);
  }
  if (past) {
    const results = resultsFor(seat, contest, contestKey, candidates, rand);
    nodes.push(...results.nodes);
    edges.push(...results.edges);
    const winner = candidates[results.winner]!;
    const start = `${year + 1}-01-03`;
    edges.push({
      kind: 'HOLDS',
      from: winner.person,
      to: office,
      key: start,
      data: { start, end: `${year + 1 + seat.term}-01-03`, party: winner.party },
    });
  }
  return { nodes, edges };
}

interface Candidate {
  nodes: NodeDraft[];
  edges: EdgeDoc[];
  person: string;
  party: string;
  candidacy: string;
  name: string;
}

function candidate(seat: Seat, contestKey: string, i: number, past: boolean, rand: () => number): Candidate {
  const { given, family } = personName(rand);
  const name = `${given} ${family}`;
  const personKey = `${slugKey(name)}-${contestKey.length % 97}-${i}`;
  const person = slug('person', personKey);
  const candidacy = candidacySlug(contestKey, personKey);
  const party = `party:${PARTIES[i % PARTIES.length]!.key}`;
  const { state } = seat.region;
  const [filing, access] = past
    ? i === 2
      ? ['QUALIFIED', 'WRITE_IN']
      : ['QUALIFIED', 'ON_BALLOT']
    : pick(UPCOMING_STATES, rand);
  const site = `https://${slugKey(name)}.example.org`;
  const claims: Record<string, FieldValue> = {
    name,
    person,
    contest: `contest:${contestKey}`,
    party,
    isIncumbent: i === 0 && rand() < 0.5,
    filingStatus: filing,
    ballotAccess: access,
    campaignWebsite: site,
    campaignEmails: [`hello@${slugKey(name)}.example.org`],
    campaignPhones: [`+1-555-01${String(Math.floor(rand() * 100)).padStart(2, '0')}`],
    campaignTeam: [
      {
        role: 'campaign manager',
        name: `${pick(['Alex', 'Sam', 'Robin'], rand)} ${family}`,
        email: `team@${slugKey(name)}.example.org`,
        phone: '+1-555-0100',
      },
    ],
  };
  const positions = [0, 1].map((k) => {
    const issue = ISSUES[(i + k * 3) % ISSUES.length]!;
    return { slug: slug('position', `${parseSlug(candidacy)!.key}-${issue}`), issue, stance: pick(STANCES, rand) };
  });
  const nodes: NodeDraft[] = [
    {
      kind: 'person',
      slug: person,
      state: '',
      tier: '',
      data: { name, givenName: given, familyName: family, ids: {}, birthday: null, gender: null },
    },
    ...positions.map((p): NodeDraft => ({
      kind: 'position',
      slug: p.slug,
      state,
      tier: seat.tier,
      data: {
        issue: p.issue,
        stance: p.stance,
        summary: `${name} ${p.stance} more ${p.issue} funding (invented for the demo).`,
      },
    })),
    {
      kind: 'candidacy',
      slug: candidacy,
      state,
      tier: seat.tier,
      claims,
      provenance: pick(REGISTRIES, rand).slug,
      positions: positions.map((p) => p.slug),
    },
  ];
  const edges: EdgeDoc[] = [
    edge('FOR_CONTEST', candidacy, `contest:${contestKey}`),
    edge('OF_PERSON', candidacy, person),
    edge('OF_PARTY', candidacy, party),
    ...positions.map((p) => edge('TAKES_POSITION', candidacy, p.slug)),
  ];
  return { nodes, edges, person, party, candidacy, name };
}

const UPCOMING_STATES = [
  ['DECLARED', 'PENDING'],
  ['FILED', 'PENDING'],
  ['QUALIFIED', 'ON_BALLOT'],
  ['QUALIFIED', 'ON_BALLOT'],
  ['WITHDRAWN', 'DENIED'],
] as const;

function resultsFor(seat: Seat, contest: string, contestKey: string, candidates: Candidate[], rand: () => number) {
  const votes = candidates.map(() => 1_000 + Math.floor(rand() * 200_000));
  const total = votes.reduce((a, b) => a + b, 0);
  const winner = votes.indexOf(Math.max(...votes));
  const nodes: NodeDraft[] = candidates.map((c, i) => ({
    kind: 'result',
    slug: slug('result', `${contestKey}-${parseSlug(c.person)!.key}`),
    state: seat.region.state,
    tier: seat.tier,
    // As an official canvass writes it: the party's name, not our slug.
    data: {
      contest,
      candidacy: c.candidacy,
      choice: c.name,
      party: partyName(c.party),
      votes: votes[i]!,
      share: votes[i]! / total,
      totalVotes: total,
      certified: true,
      winner: i === winner,
    },
  }));
  const edges = candidates.flatMap((c, i) => {
    const result = (nodes[i] as { slug: string }).slug;
    return [edge('RESULT_FOR', result, c.candidacy), edge('SUPPORTED_BY', result, REGISTRIES[0].slug)];
  });
  return { nodes, edges, winner };
}

function partyName(partySlug: string): string {
  return PARTIES.find((p) => `party:${p.key}` === partySlug)?.name ?? '';
}

/**
 * A second, independent synthetic source speaks about some candidacies' party: mostly
 * agreeing (confidence rises), sometimes not (it falls), so the demo shows a spread.
 */
function* secondOpinions(candidacies: readonly CandidacyDraft[], rand: () => number): Generator<DraftBatch> {
  const parties = PARTIES.map((p) => `party:${p.key}`);
  let nodes: NodeDraft[] = [];
  for (const c of candidacies) {
    const r = rand();
    if (r >= 0.5) continue;
    const party =
      r < 0.4
        ? c.claims.party
        : pick(
            parties.filter((p) => p !== c.claims.party),
            rand,
          );
    nodes.push({
      kind: 'candidacy',
      slug: c.slug,
      state: c.state,
      tier: c.tier,
      claims: { party: party ?? null },
      provenance: SURVEY,
    });
    if (nodes.length === 200) {
      yield { nodes, edges: [] };
      nodes = [];
    }
  }
  if (nodes.length > 0) yield { nodes, edges: [] };
}
