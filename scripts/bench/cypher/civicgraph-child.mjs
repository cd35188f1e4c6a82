// One civicgraph query in a process of its own, as the graph service holds the graph: the
// LmdbGraphStore reopened from disk, then `runCypher` for an unrestricted Enterprise key:
// warm-up, timed runs, one run with the heap watched, one under the profiler. A process per
// query, so its peak RSS is the store's and that query's, not the loader's or the other
// query's. Started by civicgraph.mjs (fork, --expose-gc); the task arrives and the answer
// leaves over IPC.
import { GCProfiler } from 'node:v8';
import { LmdbGraphStore } from '@civicgraph/graph';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { cypherBudget, QueryTooComplexError } from '@civicgraph/kit';
import { runCypher } from '../../../services/graph/dist/cypher/execute.js';
import { profiled, sourceOf } from './profile.mjs';
import { summarise, timed } from './samples.mjs';

const enterprise = {
  keyId: 'key_bench',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  pinnedVersion: '2026-11-01',
  rateLimitPerMinute: 6000,
  entitlements: { contact: true, geography: true, states: [], tiers: [] },
};

/** Heap and array buffers (the view's typed arrays live outside the heap). */
const footprint = (m) => m.heapUsed + m.arrayBuffers;

const maxRss = () => process.resourceUsage().maxRSS * 1024;

function collected() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage();
}

/** One run with the collector watched: the heap's high-water mark above the idle store (the heap before each collection, and after the run), what stays, RSS. */
async function watched(once) {
  const before = collected();
  const gc = new GCProfiler();
  gc.start();
  const answer = await once();
  const after = process.memoryUsage();
  const { statistics } = gc.stop();
  const peakHeap = Math.max(after.heapUsed, ...statistics.map((s) => s.beforeGC.heapStatistics.usedHeapSize));
  const rssPeakAfter = maxRss();
  const retainedHeap = collected().heapUsed - before.heapUsed;
  void answer; // held through that collection: what stays includes the answer
  return { heapPeakGrowth: peakHeap - before.heapUsed, retainedHeap, collections: statistics.length, rssPeakAfter };
}

/** The innermost frame of an error's stack in our code, as `file:line` of the TypeScript source. */
function thrownAt(err) {
  const frame = /\((file:\/\/[^)]+):(\d+):(\d+)\)/.exec(String(err?.stack ?? ''));
  return frame === null ? '' : sourceOf(frame[1], Number(frame[2]) - 1, Number(frame[3]) - 1);
}

async function serve({ path, query, warmup, runs, profileFile }) {
  const t0 = performance.now();
  const store = await LmdbGraphStore.open(path);
  const openMs = performance.now() - t0;
  const idle = collected();
  const rssPeakAfterOpen = maxRss();
  // The evaluator's read view (store/read-view.ts) is built by the first query after the
  // store opens or changes, and kept until the next change: timed and weighed on its own.
  const v0 = performance.now();
  store.readView();
  const view = { ms: performance.now() - v0, bytes: footprint(collected()) - footprint(idle) };
  const once = () =>
    runCypher(store, enterprise, { query: query.cypher, parameters: query.parameters, minConfidence: 0 });
  try {
    const { answer, samples } = await timed(once, warmup, runs);
    const memory = { ...(await watched(once)), idleRss: idle.rss, idleHeap: idle.heapUsed, rssPeakAfterOpen };
    const profile = await profiled(once, profileFile);
    return {
      openMs,
      view,
      timing: summarise(samples),
      samples,
      columns: answer.columns,
      rows: answer.rows,
      stats: answer.stats,
      budget: cypherBudget(enterprise),
      memory,
      profile,
    };
  } catch (err) {
    // A refusal past the plan's budget, or the engine failing, is this run's answer: the
    // report states it (with where it was thrown) instead of timing nothing.
    const kind = err instanceof QueryTooComplexError ? 'refused' : 'failed';
    return {
      openMs,
      view,
      budget: cypherBudget(enterprise),
      error: { kind, message: `${err.name}: ${err.message}`, at: thrownAt(err) },
    };
  } finally {
    await store.close();
  }
}

process.once('message', async (task) => {
  process.send({ result: await serve(task) }, () => process.exit(0));
});
