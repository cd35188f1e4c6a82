// The only reader of process.env for the GraphQL benchmark: typed, frozen, defaults beside
// their variable, and a bad value fails at start naming the variable.
import { fileURLToPath } from 'node:url';
import { int, path } from '../lib/env.mjs';

/** Benchmark configuration. */
export const config = Object.freeze({
  /** Distinct seeded ballot points the load draws from (BENCH_GQL_POINTS, default 4,000). */
  points: int('BENCH_GQL_POINTS', 4_000, 1, 9_000),
  /** Seconds of each measured HTTP run (BENCH_GQL_SECONDS, default 10). */
  seconds: int('BENCH_GQL_SECONDS', 10, 1, 120),
  /** Interleaved rounds of the saturated and the paced runs (BENCH_GQL_ROUNDS, default 3). */
  rounds: int('BENCH_GQL_ROUNDS', 3, 1, 15),
  /** Seconds of the unrecorded warm-up before the saturated rounds, per server (BENCH_GQL_WARMUP, default 2). */
  warmup: int('BENCH_GQL_WARMUP', 2, 0, 30),
  /** Connections of autocannon and of the paced client (BENCH_GQL_CONNECTIONS, default 32). */
  connections: int('BENCH_GQL_CONNECTIONS', 32, 1, 1000),
  /** The paced rate, req/s: the target's (BENCH_GQL_RATE, default 300). */
  rate: int('BENCH_GQL_RATE', 300, 1, 100_000),
  /** Requests per refused-document kind in the CPU phase (BENCH_GQL_REFUSALS, default 400). */
  refusals: int('BENCH_GQL_REFUSALS', 400, 10, 100_000),
  /**
   * Quiet before each refusal kind's CPU reading, ms: its idle window, and the settling after each garbage
   * collection before it (BENCH_GQL_QUIET_MS, default 500; the smoke test, which checks only that the report renders, shortens it).
   */
  quietMs: int('BENCH_GQL_QUIET_MS', 500, 10, 10_000),
  /** Where the section is written (BENCH_OUTPUT, default the repository's BENCHMARKS.md; the smoke tests write elsewhere). */
  output: path('BENCH_OUTPUT', fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url))),
  /** A folder keeping the prepared demo graph between runs (BENCH_DEMO_CACHE, default none); see rest/main.mjs's withDemoStack. */
  demoCache: path('BENCH_DEMO_CACHE', undefined),
});

/** The targets, fixed (the knobs above only move where the load is paced). */
export const TARGETS = Object.freeze({ p99ms: 30, rate: 300, refusalCpuUs: 2_000, neighbourP99ms: 25 });

/** The spec's nested selection on the ballot. */
export const BALLOT_QUERY = `query Ballot($lat: Float!, $lng: Float!, $date: Date!) {
  ballotAtPoint(lat: $lat, lng: $lng, date: $date) {
    slug
    office { name level }
    region { name fips population }
    candidacies { person { name } party { name } isIncumbent confidence }
  }
}`;
