import { Gauge } from 'prom-client';
import { METRICS } from '@civicgraph/kit';
import type { JobRecord } from './jobs/job-record.js';
import type { JobStore } from './jobs/job-store.js';

/** The job stores of this process (tests start several): the gauges read them all when scraped. */
const watched = new Set<JobStore>();

/**
 * civic_export_newest_age_seconds{cadence}: seconds since the newest export of each cadence
 * (monthly, on_demand) was published — a monthly one older than a month and a bit means the
 * schedule stopped. civic_export_oldest_queued_seconds: how long the oldest job still waiting
 * has waited (0 when none waits), which the done-job histogram cannot show while jobs are
 * stuck. Read from the job store when /metrics is scraped: jobs are few, and every replica
 * and worker sees the same store.
 */
new Gauge({
  name: 'civic_export_newest_age_seconds',
  help: 'seconds since the newest bulk export of each cadence (monthly, on_demand) was published',
  labelNames: ['cadence'] as const,
  registers: [METRICS],
  async collect() {
    this.reset();
    const now = Date.now();
    const newest = new Map<string, number>();
    for (const job of await jobsOfAll()) {
      if (job.status !== 'succeeded') continue;
      const at = Date.parse(job.finishedAt);
      if (at > (newest.get(job.cadence) ?? -Infinity)) newest.set(job.cadence, at);
    }
    for (const [cadence, at] of newest) this.set({ cadence }, (now - at) / 1000);
  },
});

new Gauge({
  name: 'civic_export_oldest_queued_seconds',
  help: 'seconds the oldest export job not yet done (queued or running) has waited since it was asked for; 0 when none',
  registers: [METRICS],
  async collect() {
    const now = Date.now();
    const waiting = (await jobsOfAll()).filter((j) => j.status === 'queued' || j.status === 'running');
    this.set(waiting.length === 0 ? 0 : Math.max(...waiting.map((j) => (now - Date.parse(j.createdAt)) / 1000)));
  },
});

async function jobsOfAll(): Promise<JobRecord[]> {
  return (await Promise.all([...watched].map((s) => s.all()))).flat();
}

/** Reports `jobs` in the gauges until the returned function is called. */
export function watchExports(jobs: JobStore): () => void {
  watched.add(jobs);
  return () => void watched.delete(jobs);
}
