// The in-process engines: civicgraph's DistrictIndex (and its exact bruteForce, the
// reference) and mapbox which-polygon, built from the same regions, timed on the same points.
import { createRequire } from 'node:module';
import { DistrictIndex } from '@civicgraph/geo';
import { answerKey } from './agreement.mjs';
import { percentile } from '../lib/psql.mjs';

const whichPolygon = createRequire(import.meta.url)('which-polygon');

/**
 * Builds an engine, measuring wall time and retained memory: heapUsed and arrayBuffers
 * (typed arrays live outside the JS heap) deltas between two collections around the build.
 * Inputs the build reads but does not own (the regions) exist before and after, so they cancel.
 */
export function measureBuild(build) {
  collect();
  const m0 = process.memoryUsage();
  const t0 = performance.now();
  const engine = build();
  const ms = performance.now() - t0;
  collect();
  const m1 = process.memoryUsage();
  return { engine, ms, heapBytes: m1.heapUsed - m0.heapUsed, arrayBytes: m1.arrayBuffers - m0.arrayBuffers };
}

function collect() {
  globalThis.gc();
  globalThis.gc();
}

/** civicgraph: H3 prefilter + exact half-open test, at the index's default resolution. */
export function civicgraphEngine(regions) {
  const built = measureBuild(() => DistrictIndex.build(regions));
  const index = built.engine;
  return {
    name: 'civicgraph DistrictIndex',
    built,
    index,
    query: (lng, lat) => index.lookup(lat, lng),
    slugs: (hits) => hits.map((r) => r.slug),
  };
}

/** which-polygon: R-tree of polygon bounding boxes, then ray casting; queried for all matches. */
export function whichPolygonEngine(regions) {
  const fc = {
    type: 'FeatureCollection',
    features: regions.map((r) => ({ type: 'Feature', properties: { slug: r.slug }, geometry: r.geometry })),
  };
  const built = measureBuild(() => whichPolygon(fc));
  const query = built.engine;
  return {
    name: 'which-polygon',
    built,
    query: (lng, lat) => query([lng, lat], true),
    slugs: (hits) => (hits ?? []).map((p) => p.slug),
  };
}

/** civicgraph's exact scan over every region: the reference answer. */
export function bruteForceAnswers(index, set) {
  const n = set.lng.length;
  const keys = new Array(n);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) keys[i] = answerKey(index.bruteForce(set.lat[i], set.lng[i]).map((r) => r.slug));
  return { keys, usPerLookup: Number(process.hrtime.bigint() - t0) / 1e3 / n };
}

/**
 * Times one engine on one point set:
 *  - warm-up: up to 20,000 lookups or 0.5 s, which also prices a lookup; a slow engine then
 *    gets only the first `m` points of the set, so that all its passes fit in `budgetMs`;
 *  - throughput: `runs` back-to-back passes with no per-lookup timer, best pass → lookups/s
 *    (one thread, so per core);
 *  - latency: one pass timing every lookup on its own with process.hrtime.bigint()
 *    (the timer's own cost, `timerNs`, is included in each sample and reported);
 *  - answers: from the latency pass, converted to keys after the pass.
 */
export function timeEngine(engine, set, runs, budgetMs) {
  const { lng, lat } = set;
  const msPerLookup = warmUp(engine, set);
  const n = Math.min(lng.length, Math.max(1_000, Math.floor(budgetMs / msPerLookup / (runs + 1))));
  let sink = 0;
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += engine.query(lng[i], lat[i])?.length ?? 0;
    best = Math.min(best, Number(process.hrtime.bigint() - t0));
  }
  const samples = new Float64Array(n);
  const hits = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const h = engine.query(lng[i], lat[i]);
    samples[i] = Number(process.hrtime.bigint() - t0);
    hits[i] = h;
  }
  const keys = hits.map((h) => answerKey(engine.slugs(h)));
  samples.sort();
  return {
    n,
    lookupsPerSec: (n * 1e9) / best,
    p50us: percentile(samples, 0.5) / 1e3,
    p99us: percentile(samples, 0.99) / 1e3,
    keys,
    sink,
  };
}

/** Runs lookups until 20,000 or 0.5 s, whichever is first; returns ms per lookup. */
function warmUp(engine, set) {
  const limit = Math.min(set.lng.length, 20_000);
  const t0 = performance.now();
  let i = 0;
  while (i < limit && (i % 64 !== 0 || performance.now() - t0 < 500)) {
    engine.query(set.lng[i], set.lat[i]);
    i += 1;
  }
  return (performance.now() - t0) / i;
}

/** Median cost of an empty hrtime.bigint() pair, ns: the floor under every latency sample. */
export function timerOverheadNs() {
  const samples = new Float64Array(100_000);
  for (let i = 0; i < samples.length; i++) {
    const t0 = process.hrtime.bigint();
    samples[i] = Number(process.hrtime.bigint() - t0);
  }
  return percentile(samples.sort(), 0.5);
}
