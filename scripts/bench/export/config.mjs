// The only reader of process.env for the export benchmark: typed, frozen, defaults beside
// their variable; a bad value fails at start naming the variable.
import { fileURLToPath } from 'node:url';
import { flag, int, path } from '../lib/env.mjs';

export const config = Object.freeze({
  /** Synthetic candidacies, bench:graph's graph (BENCH_EXPORT_CANDIDACIES, default 200,000). */
  candidacies: int('BENCH_EXPORT_CANDIDACIES', 200_000, 1_000, 5_000_000),
  /** Timed runs of each export (BENCH_EXPORT_RUNS, default 2; the median is reported). */
  runs: int('BENCH_EXPORT_RUNS', 2, 1, 20),
  /** PostgreSQL port on 127.0.0.1 (BENCH_PG_PORT, default 5432; user postgres, trust auth). */
  pgPort: int('BENCH_PG_PORT', 5432, 1, 65535),
  /** Skip the PostgreSQL peer (BENCH_SKIP_PG=1). */
  skipPg: flag('BENCH_SKIP_PG'),
  output: path('BENCH_OUTPUT', fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url))),
  shared: fileURLToPath(new URL('../../../../shared/data/', import.meta.url)),
});
