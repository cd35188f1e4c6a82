// The only reader of process.env for the geo benchmark: typed, frozen, defaults beside
// their variable, and a bad value fails at start naming the variable.
import { fileURLToPath } from 'node:url';
import { flag, int, path } from '../lib/env.mjs';

/** Benchmark configuration. */
export const config = Object.freeze({
  /** Points per point set (BENCH_POINTS, default 100,000). */
  points: int('BENCH_POINTS', 100_000, 100, 10_000_000),
  /** Untimed-per-lookup throughput passes per engine and set; the best counts (BENCH_RUNS, default 3). */
  runs: int('BENCH_RUNS', 3, 1, 20),
  /** Time budget (s) per in-process engine and point set; a slow engine answers fewer points (BENCH_ENGINE_SECONDS, default 8). */
  engineSeconds: int('BENCH_ENGINE_SECONDS', 8, 1, 600),
  /** Time budget (s) per PostGIS point set, the same way (BENCH_PG_SECONDS, default 8). */
  pgSeconds: int('BENCH_PG_SECONDS', 8, 1, 600),
  /** Seconds of each pgbench over-the-wire run (BENCH_PGBENCH_SECONDS, default 5; 0 skips). */
  pgbenchSeconds: int('BENCH_PGBENCH_SECONDS', 5, 0, 60),
  /** PostgreSQL port on 127.0.0.1 (BENCH_PG_PORT, default 5432; user postgres, trust auth). */
  pgPort: int('BENCH_PG_PORT', 5432, 1, 65535),
  /** Seconds of each measured HTTP run (BENCH_HTTP_SECONDS, default 10; 0 skips HTTP). */
  httpSeconds: int('BENCH_HTTP_SECONDS', 10, 0, 120),
  /** Interleaved rounds of each HTTP measurement; the median round is reported (BENCH_HTTP_ROUNDS, default 5). */
  httpRounds: int('BENCH_HTTP_ROUNDS', 5, 1, 15),
  /** Seconds of the unrecorded warm-up before each saturated HTTP run (BENCH_HTTP_WARMUP, default 2). */
  httpWarmup: int('BENCH_HTTP_WARMUP', 2, 0, 30),
  /** autocannon connections (BENCH_HTTP_CONNECTIONS, default 32). */
  httpConnections: int('BENCH_HTTP_CONNECTIONS', 32, 1, 1000),
  /** Distinct random points the HTTP load draws from (BENCH_HTTP_POINTS, default 100,000). */
  httpPoints: int('BENCH_HTTP_POINTS', 100_000, 1, 10_000_000),
  /**
   * Only the HTTP part, printed to stdout (BENCH_HTTP_ONLY=1): for iterating on the gateway in
   * minutes. Nothing is written, as the section needs the engine workloads too.
   */
  httpOnly: flag('BENCH_HTTP_ONLY'),
  /** Skip PostGIS entirely (BENCH_SKIP_PG=1). */
  skipPg: flag('BENCH_SKIP_PG'),
  /** Where the section is written (BENCH_OUTPUT, default the repository's BENCHMARKS.md; the smoke tests write elsewhere). */
  output: path('BENCH_OUTPUT', fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url))),
  /** The shared public data folder, a sibling of the repository. */
  shared: fileURLToPath(new URL('../../../../shared/data/', import.meta.url)),
});
