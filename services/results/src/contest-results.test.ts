import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { NotFoundError } from '@civicgraph/kit';
import { contestResults } from './contest-results.js';
import type { ContestRecord } from './domain/contest-record.js';
import { LmdbResultsStore } from './store/lmdb-results-store.js';

const who = (states: string[] = []): Principal => ({
  keyId: 'key_test',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_BUILD,
  pinnedVersion: '',
  rateLimitPerMinute: 600,
  entitlements: { contact: false, geography: true, states, tiers: [] },
});

const GOVERNOR: ContestRecord = {
  contest: 'contest:co-governor-2026-general',
  state: 'co',
  tier: 'state',
  rows: [
    {
      slug: 'result:a',
      choice: 'A',
      candidacy: 'candidacy:a',
      party: 'Democratic',
      votes: 60,
      share: 0.6,
      totalVotes: 100,
      certified: true,
      winner: true,
      provenance: ['provenance:x'],
    },
    {
      slug: 'result:b',
      choice: 'B',
      candidacy: 'candidacy:b',
      party: 'Republican',
      votes: 40,
      share: 0.4,
      totalVotes: 100,
      certified: true,
      winner: false,
      provenance: ['provenance:x', 'provenance:y'],
    },
  ],
};

let dir: string;
let store: LmdbResultsStore;
let reads: number;
let graphAsked: string[];
const deps = () => ({
  store: { contest: (slug: string) => ((reads += 1), store.contest(slug)) },
  graph: {
    contestVisible: async (_p: Principal, slug: string) => (
      graphAsked.push(slug),
      slug === 'contest:co-governor-2028-general'
    ),
  },
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'civic-results-unit-'));
  store = LmdbResultsStore.open(dir);
  await store.putContest(GOVERNOR.contest, GOVERNOR);
  reads = 0;
  graphAsked = [];
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('contestResults', () => {
  it('answers a contest with one store read and no call to the graph, however many rows it has', async () => {
    const res = await contestResults(deps(), who(), { contest: GOVERNOR.contest });
    expect(reads).toBe(1);
    expect(graphAsked).toEqual([]);
    expect(res).toEqual({
      contest: GOVERNOR.contest,
      results: [
        {
          slug: 'result:a',
          choice: 'A',
          candidacy: 'candidacy:a',
          party: 'Democratic',
          votes: '60',
          share: 0.6,
          winner: true,
        },
        {
          slug: 'result:b',
          choice: 'B',
          candidacy: 'candidacy:b',
          party: 'Republican',
          votes: '40',
          share: 0.4,
          winner: false,
        },
      ],
      totalVotes: '100',
      certified: true,
      provenance: ['provenance:x', 'provenance:y'],
    });
  });

  it("hides a held contest outside the caller's states by the contest's own scope", async () => {
    await expect(contestResults(deps(), who(['de']), { contest: GOVERNOR.contest })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(graphAsked).toEqual([]);
  });

  it('asks the graph, as the caller, about a contest it holds no rows of', async () => {
    expect(await contestResults(deps(), who(), { contest: 'contest:co-governor-2028-general' })).toEqual({
      contest: 'contest:co-governor-2028-general',
      results: [],
      certified: false,
      provenance: [],
    });
    await expect(contestResults(deps(), who(), { contest: 'contest:co-nowhere-2026-general' })).rejects.toMatchObject({
      field: 'contest',
    });
    expect(graphAsked).toEqual(['contest:co-governor-2028-general', 'contest:co-nowhere-2026-general']);
  });

  it('refuses a missing or non-contest slug naming the field', async () => {
    await expect(contestResults(deps(), who(), { contest: '' })).rejects.toMatchObject({ field: 'contest' });
    await expect(contestResults(deps(), who(), { contest: 'region:co' })).rejects.toMatchObject({ field: 'contest' });
  });
});
