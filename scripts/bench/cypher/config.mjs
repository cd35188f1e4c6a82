// The only reader of process.env for the Cypher benchmark: typed, frozen, defaults beside
// their variable; a bad value fails at start naming the variable.
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { flag, int, path } from '../lib/env.mjs';

export const config = Object.freeze({
  /** Synthetic candidacies, bench:graph's graph (BENCH_CYPHER_CANDIDACIES, default 200,000). */
  candidacies: int('BENCH_CYPHER_CANDIDACIES', 200_000, 1_000, 5_000_000),
  /** Timed runs per query and engine (BENCH_CYPHER_RUNS, default 10). */
  runs: int('BENCH_CYPHER_RUNS', 10, 1, 1_000),
  /** Untimed runs before them (BENCH_CYPHER_WARMUP, default 2). */
  warmup: int('BENCH_CYPHER_WARMUP', 2, 0, 100),
  /** PostgreSQL port on 127.0.0.1 (BENCH_PG_PORT, default 5432; user postgres, trust auth). */
  pgPort: int('BENCH_PG_PORT', 5432, 1, 65535),
  /** Skip the PostgreSQL peer (BENCH_SKIP_PG=1). */
  skipPg: flag('BENCH_SKIP_PG'),
  /** Where civicgraph's per-query .cpuprofile files go (BENCH_CYPHER_PROFILE_DIR, default the OS temp dir). */
  profileDir: path('BENCH_CYPHER_PROFILE_DIR', tmpdir()),
  output: path('BENCH_OUTPUT', fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url))),
  shared: fileURLToPath(new URL('../../../../shared/data/', import.meta.url)),
});
