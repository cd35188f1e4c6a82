import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EDGE_KINDS, NODE_KINDS } from '../model/kinds.js';
import type { EdgeDoc } from '../model/nodes.js';
import { candidacy, changes, contest, creates, edge, region } from './conformance-fixtures.js';
import type { GraphStore, NodeScan } from './graph-store.js';
import { queryAll } from './query-all.js';
import type { GraphReadView } from './read-view.js';
import { LmdbGraphStore } from './lmdb/lmdb-graph-store.js';
import { MemoryGraphStore } from './memory/memory-graph-store.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function lmdbPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'civic-read-view-'));
  dirs.push(dir);
  return join(dir, 'graph');
}

/** Two states, three tiers, candidacies at several confidences, edges of three kinds (one a loop, one dangling). */
const NODES = [
  region('co'),
  region('co-cd-1', { level: 'congressional-district' }),
  region('de', { state: 'de' }),
  contest('co-1', { region: 'region:co-cd-1' }),
  contest('de-kent', { region: 'region:de', state: 'de', tier: 'county', level: 'county' }),
  candidacy('ann', { contest: 'contest:co-1', confidence: 0.9 }),
  candidacy('bob', { contest: 'contest:co-1', confidence: 0.3 }),
  candidacy('dee', { contest: 'contest:de-kent', state: 'de', tier: 'county', confidence: 0.7 }),
];
const EDGES = [
  edge('WITHIN', 'region:co-cd-1', 'region:co'),
  edge('WITHIN', 'region:co', 'region:co'),
  edge('IN_REGION', 'contest:co-1', 'region:co-cd-1'),
  edge('IN_REGION', 'contest:de-kent', 'region:de'),
  edge('FOR_CONTEST', 'candidacy:ann', 'contest:co-1'),
  edge('FOR_CONTEST', 'candidacy:bob', 'contest:co-1'),
  edge('FOR_CONTEST', 'candidacy:dee', 'contest:de-kent'),
  edge('FOR_CONTEST', 'candidacy:dee', 'contest:gone'),
];

const key = (e: EdgeDoc) => `${e.kind} ${e.from} ${e.to} ${e.key}`;

/** Everything a view says, in the index's terms: nodes by slug with their scope, edges per kind and direction. */
function described(view: GraphReadView) {
  const nodes: Record<string, { kind: string; state: string; tier: string; confidence: number | null }> = {};
  for (let id = 0; id < view.nodeCount; id++) {
    const d = view.docs[id]!;
    expect(view.idOf(d.slug)).toBe(id);
    const [first, end] = view.idsOf(d.kind);
    expect(id >= first && id < end).toBe(true);
    const c = view.confidence[id]!;
    nodes[d.slug] = {
      kind: NODE_KINDS[view.kindOf[id]!]!,
      state: view.states[view.stateOf[id]!]!,
      tier: view.tiers[view.tierOf[id]!]!,
      confidence: Number.isNaN(c) ? null : c,
    };
  }
  const edges: string[] = [];
  for (const kind of EDGE_KINDS) {
    for (const dir of ['out', 'in'] as const) {
      const adj = view.adjacency(kind, dir);
      if (adj === undefined) continue;
      for (let id = 0; id < view.nodeCount; id++) {
        for (let k = adj.offsets[id]!; k < adj.offsets[id + 1]!; k++) {
          const e = adj.edges[k]!;
          const [near, far] = dir === 'out' ? [e.from, e.to] : [e.to, e.from];
          expect([view.docs[id]!.slug, view.docs[adj.targets[k]!]!.slug]).toEqual([near, far]);
          edges.push(`${dir} ${key(e)}`);
        }
      }
    }
  }
  return { nodes, edges: edges.sort() };
}

/** What the view should say: read through the store's own async API. */
async function expected(store: GraphStore) {
  const nodes: Record<string, { kind: string; state: string; tier: string; confidence: number | null }> = {};
  const edges: string[] = [];
  for (const kind of NODE_KINDS) {
    for (const d of await queryAll(store, { kind })) {
      const confidence = d.kind === 'candidacy' ? (d.data as { confidence: number }).confidence : null;
      nodes[d.slug] = { kind: d.kind, state: d.state, tier: d.tier, confidence };
      for (const dir of ['out', 'in'] as const) {
        for (const e of await store.edges(d.slug, dir)) {
          // An edge whose other end is not held leads nowhere: the view leaves it out.
          if ((await store.getNode(dir === 'out' ? e.to : e.from)) !== undefined) edges.push(`${dir} ${key(e)}`);
        }
      }
    }
  }
  return { nodes, edges: edges.sort() };
}

const SCANS: NodeScan[] = [
  { kind: 'candidacy' },
  { kind: 'candidacy', states: ['de', ''] },
  { kind: 'candidacy', tiers: ['county', ''] },
  { kind: 'candidacy', minConfidence: 0.5 },
  { kind: 'contest', states: ['co', ''], tiers: ['federal', ''] },
  { kind: 'contest', match: { level: ['county'] } },
  { kind: 'region', states: ['xx'] },
  { kind: 'person' },
];

const STORES: [string, () => Promise<GraphStore & { readView(): GraphReadView }>][] = [
  ['MemoryGraphStore', async () => new MemoryGraphStore()],
  ['LmdbGraphStore', async () => LmdbGraphStore.open(await lmdbPath())],
];

describe.each(STORES)('the read view of a %s', (_name, open) => {
  it('holds every node, its scope and every edge of the index, ids in slug order within each kind', async () => {
    const store = await open();
    await store.commit(creates(NODES, { link: EDGES }));
    const view = store.readView();
    expect(described(view)).toEqual(await expected(store));
    const candidacies = view.idsOf('candidacy');
    expect(view.docs.slice(...candidacies).map((d) => d.slug)).toEqual([
      'candidacy:ann',
      'candidacy:bob',
      'candidacy:dee',
    ]);
    await store.close();
  });

  it('scans as the store queries: scope, indexed fields and the confidence floor, in slug order', async () => {
    const store = await open();
    await store.commit(creates(NODES, { link: EDGES }));
    const view = store.readView();
    for (const q of SCANS) {
      const ids: number[] = [];
      view.scan(q, (id) => ids.push(id));
      const want = await queryAll(store, q);
      expect(
        ids.map((id) => view.docs[id]!.slug),
        JSON.stringify(q),
      ).toEqual(want.map((d) => d.slug));
    }
    await store.close();
  });

  it('reflects every commit: nodes put and removed, edges linked and unlinked', async () => {
    const store = await open();
    await store.commit(creates(NODES, { link: EDGES }));
    const first = store.readView();
    expect(store.readView()).toBe(first);
    const [de] = NODES.filter((n) => n.slug === 'region:de');
    const commits = [
      creates([candidacy('cy', { contest: 'contest:co-1', confidence: 0.4 })]),
      changes({ link: [edge('FOR_CONTEST', 'candidacy:cy', 'contest:co-1')] }),
      changes({ remove: [{ slug: 'candidacy:bob', expectRev: 1 }] }),
      changes({ unlink: [edge('WITHIN', 'region:co', 'region:co')] }),
      changes({ put: [{ node: { ...de!, state: 'dd' }, expectRev: 1 }] }),
    ];
    for (const c of commits) {
      const before = store.readView();
      await store.commit(c);
      const after = store.readView();
      expect(after).not.toBe(before);
      expect(described(after)).toEqual(await expected(store));
    }
    const last = store.readView();
    expect(last.idOf('candidacy:bob')).toBe(-1);
    expect(last.states[last.stateOf[last.idOf('region:de')]!]).toBe('dd');
    await store.close();
  });
});

describe('the read view of an LmdbGraphStore', () => {
  it("reflects another process's commit to the same directory", async () => {
    const path = await lmdbPath();
    const reader = await LmdbGraphStore.open(path);
    const writer = await LmdbGraphStore.open(path);
    await writer.commit(creates(NODES, { link: EDGES }));
    expect(described(reader.readView())).toEqual(await expected(writer));
    await writer.commit(changes({ remove: [{ slug: 'candidacy:ann', expectRev: 1 }] }));
    expect(reader.readView().idOf('candidacy:ann')).toBe(-1);
    await Promise.all([reader.close(), writer.close()]);
  });
});
