// The embedded store (LmdbGraphStore, as `civicgraph up` runs it) holding the synthetic graph,
// and the graph service's own ballot query timed on it in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbGraphStore } from '@civicgraph/graph';
import { Cursors } from '@civicgraph/kit';
import { ballot } from '../../../services/graph/dist/service/queries/ballot.js';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { percentile } from '../lib/psql.mjs';

const CHUNK = 5_000;
const everyone = {
  keyId: 'key_bench',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_BUILD,
  pinnedVersion: '2026-11-01',
  rateLimitPerMinute: 600,
  entitlements: { contact: false, geography: true, states: [], tiers: [] },
};

function memory() {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Loads the documents, then any edges, in large commits; reopens the store (the restart
 * cost) measuring time and memory. The ballot benchmark needs no edges; bench:cypher walks them.
 */
export async function loadEmbedded(nodes, edges = []) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-graph-'));
  const path = join(dir, 'graph');
  let store = await LmdbGraphStore.open(path);
  const t0 = performance.now();
  const commit = (put, link) => store.commit({ put, remove: [], link, unlink: [], events: [] });
  for (let i = 0; i < nodes.length; i += CHUNK)
    await commit(
      nodes.slice(i, i + CHUNK).map((node) => ({ node, expectRev: 0 })),
      [],
    );
  for (let i = 0; i < edges.length; i += CHUNK) await commit([], edges.slice(i, i + CHUNK));
  const loadMs = performance.now() - t0;
  await store.close();
  const before = memory();
  const t1 = performance.now();
  store = await LmdbGraphStore.open(path);
  const openMs = performance.now() - t1;
  const bytes = memory() - before;
  const stats = await store.stats();
  return {
    store,
    path,
    loadMs,
    openMs,
    bytes,
    stats,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Times `ballot()` per request (after a warm-up pass); returns µs percentiles and answer sizes for agreement. */
export async function timeBallots(store, requests) {
  const ctx = { store, cursors: new Cursors(Buffer.from('bench')) };
  const answer = async (r) =>
    ballot(ctx, everyone, { regions: r.regions, date: r.date, minConfidence: r.minConfidence });
  for (const r of requests.slice(0, 500)) await answer(r);
  const samples = new Float64Array(requests.length);
  const sizes = [];
  for (let i = 0; i < requests.length; i++) {
    const t = process.hrtime.bigint();
    const res = await answer(requests[i]);
    samples[i] = Number(process.hrtime.bigint() - t) / 1e3;
    sizes.push(res.contests.reduce((n, c) => n + c.candidacies.length, 0));
  }
  samples.sort();
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    n: requests.length,
    perSec: (requests.length * 1e6) / total,
    p50us: percentile(samples, 0.5),
    p99us: percentile(samples, 0.99),
    sizes,
  };
}
