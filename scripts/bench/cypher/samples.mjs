// Per-query wall times, as every engine of bench:cypher reports them.
import { percentile } from '../lib/psql.mjs';

/** Median, p95, min and max (ms) of one query's timed runs (nearest rank). */
export function summarise(samplesMs) {
  const sorted = Float64Array.from(samplesMs).sort();
  return {
    runs: sorted.length,
    medianMs: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    minMs: sorted[0],
    maxMs: sorted[sorted.length - 1],
  };
}

/** Runs `once` `warmup` times untimed, then `runs` times timed; the last answer and the samples (ms). */
export async function timed(once, warmup, runs) {
  for (let i = 0; i < warmup; i++) await once();
  const samples = [];
  let answer;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    answer = await once();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return { answer, samples };
}
