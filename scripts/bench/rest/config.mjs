// The only reader of process.env for the REST benchmark: typed, frozen, defaults beside
// their variable, and a bad value fails at start naming the variable.
import { fileURLToPath } from 'node:url';
import { int, path } from '../lib/env.mjs';

/** Benchmark configuration. */
export const config = Object.freeze({
  /** Distinct seeded ballot points the load draws from (BENCH_REST_POINTS, default 4,000). */
  points: int('BENCH_REST_POINTS', 4_000, 1, 9_000),
  /** Seconds of each measured HTTP run (BENCH_REST_SECONDS, default 10). */
  seconds: int('BENCH_REST_SECONDS', 10, 1, 120),
  /** Interleaved rounds of the saturated, the paced and the CPU measurements (BENCH_REST_ROUNDS, default 3). */
  rounds: int('BENCH_REST_ROUNDS', 3, 1, 15),
  /** Seconds of the unrecorded warm-up before the saturated rounds, per server (BENCH_REST_WARMUP, default 2). */
  warmup: int('BENCH_REST_WARMUP', 2, 0, 30),
  /** Connections of autocannon and of the paced client (BENCH_REST_CONNECTIONS, default 32). */
  connections: int('BENCH_REST_CONNECTIONS', 32, 1, 1000),
  /** The paced rate, req/s: the target's (BENCH_REST_RATE, default 500). */
  rate: int('BENCH_REST_RATE', 500, 1, 100_000),
  /** Fresh points per CPU round: each asked once (miss), then repeated (BENCH_REST_CPU_POINTS, default 1,000). */
  cpuPoints: int('BENCH_REST_CPU_POINTS', 1_000, 10, 3_000),
  /** Passes over a CPU round's points for the hit-200 and the 304 phases (BENCH_REST_CPU_PASSES, default 10). */
  cpuPasses: int('BENCH_REST_CPU_PASSES', 10, 1, 100),
  /** Concurrent keep-alive connections of the CPU phases' closed loop (BENCH_REST_CPU_CONNECTIONS, default 4). */
  cpuConnections: int('BENCH_REST_CPU_CONNECTIONS', 4, 1, 64),
  /**
   * Quiet before each CPU reading, ms: after the garbage collection that precedes a phase (V8 sweeps on
   * background threads, which cpuUsage counts) and the idle window measured before each round
   * (BENCH_REST_CPU_QUIET_MS, default 1,000; the smoke test, which checks only that the report renders, shortens it).
   */
  cpuQuietMs: int('BENCH_REST_CPU_QUIET_MS', 1_000, 10, 10_000),
  /** Where the section is written (BENCH_OUTPUT, default the repository's BENCHMARKS.md; the smoke tests write elsewhere). */
  output: path('BENCH_OUTPUT', fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url))),
  /** A folder keeping the prepared demo graph between runs (BENCH_DEMO_CACHE, default none); see withDemoStack. */
  demoCache: path('BENCH_DEMO_CACHE', undefined),
  /** The shared public data folder, a sibling of the repository. */
  shared: fileURLToPath(new URL('../../../../shared/data/', import.meta.url)),
});

/** The targets of the issue, fixed (the rate above only moves where the load is paced). */
export const TARGETS = Object.freeze({ p99ms: 15, coldP99ms: 25, rate: 500, notModifiedShare: 0.25 });

/** States the ballot points are drawn in, evenly, uniform over each state's area. */
export const STATES = Object.freeze(['co', 'ca', 'tx', 'ny', 'fl', 'pa']);
