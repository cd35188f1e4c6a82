import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultRow } from '@civicgraph/protos/civic/graph/v1/graph';
import { createLogger, makeEvent } from '@civicgraph/kit';
import { LmdbResultsStore } from '../store/lmdb-results-store.js';
import { ResultsSync } from './results-sync.js';

// The graph side is a table of rows standing in for the graph service's ListResults: what
// is under test is which contests the sync reads again, and what it keeps.
const CONTEST = 'contest:co-governor-2026-general';
const row = (slug: string, votes: number, provenance = ['provenance:x']): ResultRow => ({
  slug,
  contest: CONTEST,
  contestState: 'co',
  contestTier: 'state',
  choice: slug,
  candidacy: '',
  party: '',
  votes: String(votes),
  share: undefined,
  totalVotes: undefined,
  certified: true,
  winner: undefined,
  provenance,
});
const node = (r: ResultRow) => ({
  slug: r.slug,
  kind: 'result' as const,
  state: 'co',
  tier: 'state',
  rev: 1,
  updatedAt: '',
  data: {
    contest: r.contest,
    candidacy: r.candidacy,
    choice: r.choice,
    party: r.party,
    votes: Number(r.votes),
    share: null,
    totalVotes: null,
    certified: true,
    winner: null,
  },
});

let dir: string;
let store: LmdbResultsStore;
let table: ResultRow[];
let reads: string[];
let sync: ResultsSync;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'civic-results-sync-'));
  store = LmdbResultsStore.open(dir);
  table = [];
  reads = [];
  const graph = {
    rows: async (contest: string) => (
      reads.push(contest),
      table.filter((r) => contest === '' || r.contest === contest)
    ),
  };
  sync = new ResultsSync(store, graph, createLogger('test', 'silent'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ResultsSync', () => {
  it("reads a contest once for an import's events about each of its rows", async () => {
    table = [row('result:a', 5), row('result:b', 7), row('result:c', 1)];
    for (const r of table)
      await sync.handle(
        makeEvent({ env: 'test', kind: 'result', verb: 'created', slugs: [r.slug], version: '1', node: node(r) }),
      );
    expect(reads).toEqual([CONTEST]);
    expect((await store.contest(CONTEST))?.rows.map((r) => r.slug)).toEqual(['result:b', 'result:a', 'result:c']);
  });

  it("reads again for a change of provenance alone, which the event's node does not show", async () => {
    table = [row('result:a', 5)];
    await sync.catchUp();
    table = [row('result:a', 5, ['provenance:x', 'provenance:y'])];
    await sync.handle(
      makeEvent({
        env: 'test',
        kind: 'result',
        verb: 'updated',
        slugs: ['result:a', 'provenance:y'],
        changedFields: ['SUPPORTED_BY'],
        version: '1',
        node: node(table[0]!),
      }),
    );
    expect((await store.contest(CONTEST))?.rows[0]?.provenance).toEqual(['provenance:x', 'provenance:y']);
  });

  it('drops a deleted row, found by its slug alone, and the contest with its last row', async () => {
    table = [row('result:a', 5), row('result:b', 7)];
    await sync.catchUp();
    table = [row('result:b', 7)];
    await sync.handle(makeEvent({ env: 'test', kind: 'result', verb: 'deleted', slugs: ['result:a'], version: '2' }));
    expect((await store.contest(CONTEST))?.rows.map((r) => r.slug)).toEqual(['result:b']);
    expect(await store.contestOf('result:a')).toBeUndefined();
    table = [];
    await sync.handle(makeEvent({ env: 'test', kind: 'result', verb: 'deleted', slugs: ['result:b'], version: '2' }));
    expect(await store.contest(CONTEST)).toBeUndefined();
  });

  it('reads a contest again when the contest changes only if it holds rows of it', async () => {
    table = [row('result:a', 5)];
    await sync.catchUp();
    reads = [];
    table = [{ ...row('result:a', 5), contestTier: 'county' }];
    await sync.handle(
      makeEvent({
        env: 'test',
        kind: 'contest',
        verb: 'updated',
        slugs: [CONTEST],
        changedFields: ['tier'],
        version: '2',
      }),
    );
    await sync.handle(
      makeEvent({
        env: 'test',
        kind: 'contest',
        verb: 'updated',
        slugs: ['contest:co-governor-2028-general'],
        changedFields: ['tier'],
        version: '2',
      }),
    );
    expect(reads).toEqual([CONTEST]);
    expect((await store.contest(CONTEST))?.tier).toBe('county');
  });

  it('replaces everything on catching up, and remembers that it has', async () => {
    expect(await store.syncedAt()).toBeUndefined();
    table = [row('result:a', 5)];
    await sync.catchUp();
    table = [{ ...row('result:z', 3), contest: 'contest:de-governor-2026-general' }];
    await sync.catchUp();
    expect(await store.contest(CONTEST)).toBeUndefined();
    expect(await store.contestOf('result:z')).toBe('contest:de-governor-2026-general');
    expect(await store.syncedAt()).toEqual(expect.any(String));
  });
});
