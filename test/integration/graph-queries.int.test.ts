import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status, type ServiceError } from '@grpc/grpc-js';
import type { Candidacy, Contest } from '@civicgraph/protos/civic/graph/v1/graph';
import { generateDemo } from '@civicgraph/graph';
import { TEST_DEMO_REGIONS } from '../../services/graph/test/demo-regions.js';
import type { CivicEvent } from '@civicgraph/kit';
import { principal, rpc, startGraphStack, type GraphStack } from '../harness/graph-stack.js';

const TODAY = '2026-11-22';
const NEXT_GENERAL = '2028-11-07';
const PAST_GENERAL = '2026-11-03';
const regions = TEST_DEMO_REGIONS;
const DENVER = ['region:co', 'region:co-denver-county', 'region:co-cd-1'];
const LEVELS = ['state', 'county', 'congressional-district'];

let s: GraphStack;
const everyone = principal();
const withContact = principal({ contact: true });

beforeAll(async () => {
  s = await startGraphStack();
  for (const batch of generateDemo({ regions, today: TODAY })) await s.graph.writer.apply(batch);
  // The results service keeps its own copy: wait until it holds what was just loaded.
  await s.results.catchUp();
});
afterAll(() => s?.stop());

// The past general: its demo candidacies are certified, so every one is on the ballot.
const ballot = (who = everyone, date = PAST_GENERAL, minConfidence = 0, on = DENVER) =>
  rpc(s.graphClient.ballot, s.graphClient, who, {
    regions: on,
    regionLevels: on === DENVER ? LEVELS : [],
    date,
    minConfidence,
  });
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  )) as ServiceError;
const fieldOf = (e: ServiceError) => e.metadata.get('civic-error-field')[0];

describe('graph service: the ballot', () => {
  it('lists the contests of every region of the point on the date, national included, each with candidacies', async () => {
    const res = await ballot();
    const levels = new Set(res.contests.map((c) => c.level));
    // A midterm: no national contest; the presidential year has one.
    expect(levels).toEqual(new Set(['state', 'county', 'congressional-district']));
    expect((await ballot(everyone, NEXT_GENERAL)).contests.map((c) => c.level)).toContain('national');
    expect(res.contests.every((c) => c.date === PAST_GENERAL)).toBe(true);
    for (const c of res.contests) {
      expect(c.candidacies.length).toBeGreaterThanOrEqual(2);
      expect(c.office?.name).not.toBe('');
      expect(c.region?.slug).toBe(
        c.level === 'national'
          ? 'region:us'
          : [...DENVER]
              .sort((a, b) => b.length - a.length)
              .find((r) => c.slug.startsWith(`contest:${r.slice('region:'.length)}-`)),
      );
      expect(c.region?.name).not.toBe('');
      const confidences = c.candidacies.map((x) => x.confidence);
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    }
    expect((await ballot(everyone, '2030-01-01')).contests).toEqual([]);
  });

  it('lists only candidacies whose ballot access is established; the rest stay reachable with their status', async () => {
    const upcoming = (await ballot(everyone, NEXT_GENERAL)).contests;
    const listed = upcoming.flatMap((c) => c.candidacies);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.ballotAccess === 'ON_BALLOT' || c.ballotAccess === 'WRITE_IN')).toBe(true);
    const all = await rpc(s.graphClient.listCandidacies, s.graphClient, everyone, {
      contest: upcoming[0]!.slug,
      state: '',
      party: '',
      minConfidence: 0,
      page: { cursor: '', limit: 200 },
    });
    expect(all.data.length).toBeGreaterThanOrEqual(upcoming[0]!.candidacies.length);
    const hidden = (
      await Promise.all(
        upcoming.map((c) =>
          rpc(s.graphClient.listCandidacies, s.graphClient, everyone, {
            contest: c.slug,
            state: '',
            party: '',
            minConfidence: 0,
            page: { cursor: '', limit: 200 },
          }),
        ),
      )
    )
      .flatMap((p) => p.data)
      .filter((c) => c.ballotAccess !== 'ON_BALLOT' && c.ballotAccess !== 'WRITE_IN');
    expect(hidden.length).toBeGreaterThan(0);
  });

  it('gives each candidacy its person, party, states, positions, provenance and per-field support', async () => {
    const c = (await ballot()).contests.flatMap((x) => x.candidacies)[0]!;
    expect(c.person?.name).toBe(c.name);
    expect(c.party?.slug).toMatch(/^party:/);
    expect(c.filingStatus).not.toBe('');
    expect(c.positions.length).toBe(2);
    expect(c.provenance.length).toBeGreaterThanOrEqual(1);
    expect(c.provenance.every((p) => p.method === 'synthetic')).toBe(true);
    expect(c.confidence).toBeGreaterThan(0);
    expect(c.confidence).toBeLessThan(0.5);
    expect(c.fields.map((f) => f.field)).toContain('party');
  });

  it('leaves contact fields out without the contact entitlement and fills them with it', async () => {
    const without = (await ballot()).contests.flatMap((x) => x.candidacies);
    expect(
      without.every(
        (c) =>
          !c.contactIncluded &&
          c.campaignEmails.length === 0 &&
          c.campaignPhones.length === 0 &&
          c.campaignTeam.length === 0,
      ),
    ).toBe(true);
    expect(
      without.every((c) =>
        c.fields.every((f) => !['campaignEmails', 'campaignPhones', 'campaignTeam'].includes(f.field)),
      ),
    ).toBe(true);
    const withIt = (await ballot(withContact)).contests.flatMap((x) => x.candidacies);
    expect(withIt.every((c) => c.contactIncluded && c.campaignEmails.length > 0 && c.campaignTeam.length > 0)).toBe(
      true,
    );
  });

  it('filters on min_confidence in the store query', async () => {
    const all = (await ballot()).contests.flatMap((x) => x.candidacies);
    const confidences = all.map((c) => c.confidence).sort((a, b) => a - b);
    const cut = confidences[Math.floor(confidences.length / 2)]!;
    const kept = (await ballot(everyone, PAST_GENERAL, cut)).contests.flatMap((x) => x.candidacies);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length);
    expect(kept.every((c) => c.confidence >= cut)).toBe(true);
  });

  it("keeps a key to its states and tiers: other states' contests do not exist for it", async () => {
    const deOnly = principal({ states: ['de'] });
    const res = await ballot(deOnly, NEXT_GENERAL);
    expect(res.contests.map((c) => c.level)).toEqual(['national']);
    const countyOnly = principal({ tiers: ['county'] });
    expect(new Set((await ballot(countyOnly)).contests.map((c) => c.level))).toEqual(new Set(['county']));
    const coCandidacy = (await ballot()).contests.find((c) => c.level === 'state')!.candidacies[0]!;
    const e = await failure(
      rpc(s.graphClient.getCandidacy, s.graphClient, deOnly, { slug: coCandidacy.slug, minConfidence: 0 }),
    );
    expect(e.code).toBe(status.NOT_FOUND);
  });

  it('refuses bad input naming the field', async () => {
    expect(fieldOf(await failure(ballot(everyone, '11/5/24')))).toBe('date');
    expect(fieldOf(await failure(ballot(everyone, NEXT_GENERAL, 1.5)))).toBe('min_confidence');
    expect(fieldOf(await failure(ballot(everyone, NEXT_GENERAL, 0, ['county:denver'])))).toBe('regions[0]');
  });
});

describe('graph service: many ballots in one call (Ballots)', () => {
  const request = (date: string, on = DENVER, minConfidence = 0) => ({
    regions: on,
    regionLevels: on === DENVER ? LEVELS : [],
    date,
    minConfidence,
  });
  const many = (...ballots: ReturnType<typeof request>[]) =>
    rpc(s.graphClient.ballots, s.graphClient, everyone, { ballots });

  it('answers each ballot exactly as Ballot does, in request order', async () => {
    const asked = [request(PAST_GENERAL), request(NEXT_GENERAL), request(PAST_GENERAL, ['region:co'])];
    const { answers } = await many(...asked);
    expect(answers).toHaveLength(3);
    const alone = await Promise.all(asked.map((r) => rpc(s.graphClient.ballot, s.graphClient, everyone, r)));
    expect(answers.map((a) => a.error)).toEqual([undefined, undefined, undefined]);
    expect(answers.map((a) => a.ballot)).toEqual(alone);
    expect(alone[0]!.contests.length).toBeGreaterThan(0);
  });

  it("fails only a ballot's own bad input, naming its field", async () => {
    const { answers } = await many(request('11/5/24'), request(PAST_GENERAL), request(PAST_GENERAL, DENVER, 1.5));
    expect(answers[0]).toMatchObject({ error: { type: 'invalid_parameter', field: 'date' } });
    expect(answers[0]!.ballot).toBeUndefined();
    expect(answers[1]!.error).toBeUndefined();
    expect(answers[1]!.ballot?.contests.length).toBeGreaterThan(0);
    expect(answers[2]).toMatchObject({ error: { type: 'invalid_parameter', field: 'min_confidence' } });
  });

  it('refuses an empty call and one over 1,000 ballots, naming ballots', async () => {
    for (const ballots of [[], Array.from({ length: 1001 }, () => request(PAST_GENERAL))]) {
      const e = await failure(rpc(s.graphClient.ballots, s.graphClient, everyone, { ballots }));
      expect(e.code).toBe(status.INVALID_ARGUMENT);
      expect(fieldOf(e)).toBe('ballots');
    }
  });
});

describe('graph service: lists', () => {
  it('pages contests with cursors to the end, without gaps or repeats', async () => {
    const seen: Contest[] = [];
    let cursor = '';
    for (let i = 0; i < 50; i++) {
      const page = await rpc(s.graphClient.listContests, s.graphClient, everyone, {
        state: 'CO',
        level: '',
        date: '',
        minConfidence: 0,
        page: { cursor, limit: 4 },
      });
      seen.push(...page.data);
      cursor = page.nextCursor;
      if (cursor === '') break;
    }
    const all = await rpc(s.graphClient.listContests, s.graphClient, everyone, {
      state: 'co',
      level: '',
      date: '',
      minConfidence: 0,
      page: { cursor: '', limit: 200 },
    });
    expect(seen.map((c) => c.slug)).toEqual(all.data.map((c) => c.slug));
    expect(new Set(seen.map((c) => c.slug)).size).toBe(seen.length);
    expect(seen.every((c) => c.state === 'co')).toBe(true);
    const dates = seen.map((c) => c.date);
    expect(dates).toEqual([...dates].sort());
  });

  it('refuses a tampered cursor, or one replayed with other filters', async () => {
    const first = await rpc(s.graphClient.listContests, s.graphClient, everyone, {
      state: 'co',
      level: '',
      date: '',
      minConfidence: 0,
      page: { cursor: '', limit: 2 },
    });
    const tampered = `${first.nextCursor.slice(0, -2)}xx`;
    for (const [state, cursor] of [
      ['co', tampered],
      ['de', first.nextCursor],
    ] as const) {
      const e = await failure(
        rpc(s.graphClient.listContests, s.graphClient, everyone, {
          state,
          level: '',
          date: '',
          minConfidence: 0,
          page: { cursor, limit: 2 },
        }),
      );
      expect(e.code).toBe(status.INVALID_ARGUMENT);
      expect(fieldOf(e)).toBe('cursor');
    }
  });

  it('filters contests by level and date, and refuses a missing state or an unknown level', async () => {
    const res = await rpc(s.graphClient.listContests, s.graphClient, everyone, {
      state: 'co',
      level: 'county',
      date: PAST_GENERAL,
      minConfidence: 0,
      page: undefined,
    });
    expect(res.data.length).toBeGreaterThan(0);
    expect(res.data.every((c) => c.level === 'county' && c.date === PAST_GENERAL)).toBe(true);
    expect(
      fieldOf(
        await failure(
          rpc(s.graphClient.listContests, s.graphClient, everyone, {
            state: '',
            level: '',
            date: '',
            minConfidence: 0,
            page: undefined,
          }),
        ),
      ),
    ).toBe('state');
    expect(
      fieldOf(
        await failure(
          rpc(s.graphClient.listContests, s.graphClient, everyone, {
            state: 'co',
            level: 'galaxy',
            date: '',
            minConfidence: 0,
            page: undefined,
          }),
        ),
      ),
    ).toBe('level');
    expect(
      fieldOf(
        await failure(
          rpc(s.graphClient.listContests, s.graphClient, everyone, {
            state: 'co',
            level: '',
            date: '',
            minConfidence: 0,
            page: { cursor: '', limit: 500 },
          }),
        ),
      ),
    ).toBe('limit');
  });

  it('lists candidacies by party and a contest with its candidacies', async () => {
    const dems = await rpc(s.graphClient.listCandidacies, s.graphClient, everyone, {
      contest: '',
      state: 'co',
      party: 'party:democratic',
      minConfidence: 0,
      page: { cursor: '', limit: 200 },
    });
    expect(dems.data.length).toBeGreaterThan(0);
    expect(dems.data.every((c) => c.party?.slug === 'party:democratic' && c.state === 'co')).toBe(true);
    const contestSlug = dems.data[0]!.contest;
    const contest = await rpc(s.graphClient.getContest, s.graphClient, everyone, {
      slug: contestSlug,
      minConfidence: 0,
    });
    expect(contest.candidacies.map((c) => c.slug)).toContain(dems.data[0]!.slug);
    expect(
      fieldOf(
        await failure(
          rpc(s.graphClient.listCandidacies, s.graphClient, everyone, {
            contest: '',
            state: '',
            party: '',
            minConfidence: 0,
            page: undefined,
          }),
        ),
      ),
    ).toBe('contest');
  });

  it('lists election dates of a state between two days, soonest first', async () => {
    const res = await rpc(s.graphClient.listElectionDates, s.graphClient, everyone, {
      state: 'co',
      from: '2026-01-01',
      to: '2030-01-01',
      page: undefined,
    });
    expect(res.data.map((e) => e.date)).toEqual([PAST_GENERAL, '2028-06-06', NEXT_GENERAL]);
    expect(
      fieldOf(
        await failure(
          rpc(s.graphClient.listElectionDates, s.graphClient, everyone, {
            state: 'co',
            from: '2028-01-01',
            to: '2027-01-01',
            page: undefined,
          }),
        ),
      ),
    ).toBe('to');
  });

  it('names who holds an office on a date: the winner of its last contest', async () => {
    const res = await rpc(s.graphClient.listOfficeholders, s.graphClient, everyone, {
      office: 'office:co-denver-county-sheriff',
      region: '',
      date: '2027-06-01',
      page: undefined,
    });
    expect(res.data).toHaveLength(1);
    const results = await rpc(s.resultsClient.contestResults, s.resultsClient, everyone, {
      contest: `contest:co-denver-county-sheriff-2026-general`,
    });
    const winner = results.results.find((r) => r.winner)!;
    expect(res.data[0]!.person?.name).toBe(winner.choice);
    expect(res.data[0]!.start).toBe('2027-01-03');
    const byRegion = await rpc(s.graphClient.listOfficeholders, s.graphClient, everyone, {
      office: '',
      region: 'region:co-denver-county',
      date: '2027-06-01',
      page: undefined,
    });
    expect(byRegion.data.map((t) => t.office?.slug).sort()).toEqual([
      'office:co-denver-county-county-commissioner',
      'office:co-denver-county-sheriff',
    ]);
    // Before the winners' terms start, nobody elected in the demo holds the office.
    const before = await rpc(s.graphClient.listOfficeholders, s.graphClient, everyone, {
      office: '',
      region: 'region:co-denver-county',
      date: '2026-06-01',
      page: undefined,
    });
    expect(before.data).toEqual([]);
  });
});

describe('graph service: result rows for the results service', () => {
  it("lists a contest's rows with the contest's scope and provenance, and none of a contest outside the caller's scope", async () => {
    const contest = 'contest:co-governor-2026-general';
    const res = await rpc(s.graphClient.listResults, s.graphClient, everyone, { contest, page: undefined });
    expect(res.data.length).toBeGreaterThanOrEqual(2);
    for (const r of res.data)
      expect(r).toMatchObject({
        contest,
        contestState: 'co',
        contestTier: 'state',
        provenance: ['provenance:demo-synthetic-registry'],
      });
    expect(
      (await rpc(s.graphClient.listResults, s.graphClient, principal({ states: ['de'] }), { contest, page: undefined }))
        .data,
    ).toEqual([]);
    expect(
      fieldOf(
        await failure(
          rpc(s.graphClient.listResults, s.graphClient, everyone, { contest: 'region:co', page: undefined }),
        ),
      ),
    ).toBe('contest');
  });

  it('pages through every row of every contest', async () => {
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await rpc(s.graphClient.listResults, s.graphClient, everyone, {
        contest: '',
        page: { cursor, limit: 7 },
      });
      seen.push(...page.data.map((r) => r.slug));
      cursor = page.nextCursor;
    } while (cursor !== '');
    expect(seen.length).toBeGreaterThan(7);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(
      (
        await rpc(s.graphClient.listResults, s.graphClient, everyone, {
          contest: 'contest:co-governor-2026-general',
          page: undefined,
        })
      ).data[0]!.slug,
    );
  });
});

describe('results service', () => {
  it('lists certified results with shares summing to one and one winner', async () => {
    const res = await rpc(s.resultsClient.contestResults, s.resultsClient, everyone, {
      contest: 'contest:co-governor-2026-general',
    });
    expect(res.certified).toBe(true);
    expect(res.results.length).toBeGreaterThanOrEqual(2);
    expect(res.results.reduce((sum, r) => sum + (r.share ?? 0), 0)).toBeCloseTo(1, 6);
    expect(res.results.filter((r) => r.winner)).toHaveLength(1);
    const votes = res.results.map((r) => Number(r.votes));
    expect(votes).toEqual([...votes].sort((a, b) => b - a));
    expect(Number(res.totalVotes)).toBe(votes.reduce((a, b) => a + b, 0));
  });

  it('hides an out-of-scope contest and refuses a non-contest slug', async () => {
    const e = await failure(
      rpc(s.resultsClient.contestResults, s.resultsClient, principal({ states: ['de'] }), {
        contest: 'contest:co-governor-2026-general',
      }),
    );
    expect(e.code).toBe(status.NOT_FOUND);
    expect(
      fieldOf(await failure(rpc(s.resultsClient.contestResults, s.resultsClient, everyone, { contest: 'region:co' }))),
    ).toBe('contest');
  });
});

describe('graph service: candidacy moves', () => {
  async function upcoming(filing: string): Promise<Candidacy> {
    const all = (
      await rpc(s.graphClient.listCandidacies, s.graphClient, everyone, {
        contest: '',
        state: 'co',
        party: '',
        minConfidence: 0,
        page: { cursor: '', limit: 200 },
      })
    ).data;
    const found = all.find((c) => c.filingStatus === filing);
    if (found === undefined) throw new Error(`no ${filing} candidacy in the demo`);
    return found;
  }

  it('refuses an illegal move naming the field and both values, and publishes an accepted one', async () => {
    await s.graph.writer.apply({
      nodes: [
        {
          kind: 'provenance',
          slug: 'provenance:test-sos-filing',
          state: '',
          tier: '',
          data: {
            source: 'Secretary of State filings',
            url: 'https://example.org/filings',
            publisher: 'Colorado Secretary of State',
            licence: 'public record',
            retrievedAt: new Date().toISOString(),
            method: 'official-filing',
          },
        },
      ],
      edges: [],
    });
    const declared = await upcoming('DECLARED');
    const illegal = await failure(
      rpc(s.graphClient.moveCandidacy, s.graphClient, everyone, {
        slug: declared.slug,
        filingStatus: 'QUALIFIED',
        ballotAccess: '',
        provenance: 'provenance:test-sos-filing',
      }),
    );
    expect(illegal.code).toBe(status.INVALID_ARGUMENT);
    expect(fieldOf(illegal)).toBe('filing_status');
    expect(illegal.details).toContain('DECLARED');
    expect(illegal.details).toContain('QUALIFIED');

    const events: CivicEvent[] = [];
    await s.bus.subscribe('civic.test.candidacy.updated', async (e) => {
      events.push(e);
    });
    const moved = await rpc(s.graphClient.moveCandidacy, s.graphClient, everyone, {
      slug: declared.slug,
      filingStatus: 'FILED',
      ballotAccess: '',
      provenance: 'provenance:test-sos-filing',
    });
    expect(moved.filingStatus).toBe('FILED');
    expect(moved.provenance.map((p) => p.slug)).toContain('provenance:test-sos-filing');
    await s.graph.drainOutbox();
    await expect.poll(() => events.filter((e) => e.slugs.includes(declared.slug)).length).toBe(1);
    expect(events.find((e) => e.slugs.includes(declared.slug))!.changedFields).toContain('filingStatus');
  });
});
