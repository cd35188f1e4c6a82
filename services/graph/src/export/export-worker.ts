import { lagSeconds, randomBase62, type Logger } from '@civicgraph/kit';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import type { BoundarySource } from './boundaries.js';
import { MAX_ATTEMPTS, type JobRecord } from './jobs/job-record.js';
import type { JobStore } from './jobs/job-store.js';
import type { ExportStorage } from './storage/export-storage.js';
import { runExport } from './run-export.js';

/** Options for {@link ExportWorker}. */
export interface ExportWorkerOptions {
  jobs: JobStore;
  storage: ExportStorage;
  /** Opens a consistent snapshot of the graph (GraphStore.snapshot, or LmdbSnapshots in a worker of its own). */
  snapshot: () => Promise<GraphSnapshot>;
  log: Logger;
  /** Region outlines for the exports' boundaries file (the geo service); absent → no boundaries. */
  boundaries?: BoundarySource;
  /** How long a running job is held without a renewal before another worker may retry it (ms). Default 60 s. */
  leaseMs?: number;
  /** How often the queue is looked at when nothing woke the worker (ms). Default 5 s. */
  pollMs?: number;
}

/**
 * Runs export jobs one at a time from the job store, which is the queue in the embedded
 * mode: the oldest queued job, or a running one whose lease has lapsed (its worker died),
 * up to MAX_ATTEMPTS. A job is restart-safe because nothing is visible until it is whole:
 * files are written to staging, each read back and verified against what was written (size
 * and SHA-256, finished gzip, Parquet footer row count), then published one by one, the manifest file last, and only then is the job
 * marked succeeded with its manifest. A worker killed at any step leaves staging behind
 * (cleared by the retry) and at most some published data files that no manifest names.
 */
export class ExportWorker {
  private readonly id = `wrk_${randomBase62(12)}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: ExportWorkerOptions) {
    this.leaseMs = o.leaseMs ?? 60_000;
    this.pollMs = o.pollMs ?? 5_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.work();
  }

  /** Looks at the queue now (a job was just enqueued). */
  kick(): void {
    this.wake?.();
  }

  /** Stops taking jobs and waits for the one in progress. */
  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    clearTimeout(this.timer);
    await this.loop;
  }

  /** Runs queued jobs until none is left; resolves with how many ran (tests, the CLI). */
  async drain(): Promise<number> {
    let ran = 0;
    for (let job = await this.claim(); job !== undefined; job = await this.claim()) {
      await this.run(job);
      ran++;
    }
    return ran;
  }

  private async work(): Promise<void> {
    while (this.running) {
      try {
        await this.drain();
      } catch (err) {
        this.o.log.error({ err }, 'export queue could not be read; retrying');
      }
      if (!this.running) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.pollMs);
        this.timer.unref();
      });
    }
  }

  /**
   * Runs one job handed out by a work queue (JetStreamJobQueue): `done` when it is finished
   * with (published, failed for good, gone, or already done), `retry` when it should come
   * again (it failed and has attempts left, or another worker's lease on it has not lapsed).
   * `working` is called while it runs, so the queue does not hand it to another worker.
   */
  async runOne(id: string, working: () => void): Promise<'done' | 'retry'> {
    const job = await this.claimJob(id, Date.now());
    if (job === undefined) {
      const now = await this.o.jobs.get(id);
      return now?.status === 'running' || now?.status === 'queued' ? 'retry' : 'done';
    }
    const beat = setInterval(working, 5_000);
    try {
      await this.run(job);
    } finally {
      clearInterval(beat);
    }
    return (await this.o.jobs.get(id))?.status === 'queued' ? 'retry' : 'done';
  }

  /** Takes the next job: queued, or running under a lapsed lease; marks failed a job out of attempts. */
  private async claim(): Promise<JobRecord | undefined> {
    const now = Date.now();
    const ready = (await this.o.jobs.all())
      .filter((j) => claimable(j, now))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    for (const candidate of ready) {
      const job = await this.claimJob(candidate.id, now);
      if (job !== undefined) return job;
    }
    return undefined;
  }

  /** Claims one job atomically when it is claimable; undefined when it is not (or was just marked failed). */
  private async claimJob(id: string, now: number): Promise<JobRecord | undefined> {
    const job = await this.o.jobs.update(id, (j) => {
      if (!claimable(j, now)) return undefined;
      if (j.attempts >= MAX_ATTEMPTS)
        return { ...j, status: 'failed', finishedAt: new Date().toISOString(), error: j.error || 'worker lost' };
      return {
        ...j,
        status: 'running',
        attempts: j.attempts + 1,
        leaseUntil: now + this.leaseMs,
        startedAt: new Date(now).toISOString(),
        rowsWritten: 0,
      };
    });
    return job?.status === 'running' ? job : undefined;
  }

  private async run(job: JobRecord): Promise<void> {
    const log = this.o.log.child({ export: job.id, attempt: job.attempts, worker: this.id });
    const started = performance.now();
    let lastProgress = 0;
    const renew = setInterval(() => void this.renew(job.id), this.leaseMs / 3);
    try {
      const manifest = await this.build(job, (written, total) => {
        if (written !== total && performance.now() - lastProgress < 500) return;
        lastProgress = performance.now();
        void this.o.jobs.update(job.id, (j) => ({ ...j, rowsWritten: written, rowsTotal: total }));
      });
      await this.o.jobs.update(job.id, (j) => ({
        ...j,
        status: 'succeeded',
        finishedAt: new Date().toISOString(),
        leaseUntil: 0,
        error: '',
        manifest,
      }));
      // Queued → done, retries and waits for a worker included: what the one who asked waited.
      lagSeconds.observe({ stage: 'export' }, Math.max(0, Date.now() - Date.parse(job.createdAt)) / 1000);
      log.info({ ms: Math.round(performance.now() - started), seq: manifest.seq }, 'export published');
    } catch (err) {
      log.error({ err }, 'export failed');
      await this.o.jobs.update(job.id, (j) => ({
        ...j,
        status: j.attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
        finishedAt: j.attempts >= MAX_ATTEMPTS ? new Date().toISOString() : '',
        leaseUntil: 0,
        error: err instanceof Error ? err.message : String(err),
      }));
    } finally {
      clearInterval(renew);
    }
  }

  /** Snapshot → staged files → verified → published, manifest last (run-export.ts). */
  private async build(job: JobRecord, progress: (written: number, total: number) => void) {
    const snapshotAt = new Date();
    const snapshot = await this.o.snapshot();
    try {
      return await runExport(snapshot, { ...job, snapshotAt }, this.o.storage, progress, this.o.boundaries);
    } finally {
      await snapshot.close();
    }
  }

  private async renew(id: string): Promise<void> {
    await this.o.jobs
      .update(id, (j) => (j.status === 'running' ? { ...j, leaseUntil: Date.now() + this.leaseMs } : undefined))
      .catch((err: unknown) => this.o.log.warn({ err, export: id }, 'export lease not renewed'));
  }
}

/** Queued, or running under a lease that has lapsed (its worker died). */
function claimable(j: JobRecord, now: number): boolean {
  return j.status === 'queued' || (j.status === 'running' && j.leaseUntil < now);
}
