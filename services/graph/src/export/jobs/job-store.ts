import { open, type Database, type RootDatabase } from 'lmdb';
import type { JobRecord } from './job-record.js';

/** What an idempotent create remembers: the job it made, from which request. */
export interface IdempotentCreate {
  jobId: string;
  requestHash: string;
}

/**
 * Export jobs on LMDB, beside the graph: `jobs` (id → record) and `idempotency`
 * (`<keyId>|<Idempotency-Key>` → the job it created). Jobs are few (one per export), so
 * listing reads them all. Every change is one synced transaction, so a job's state
 * survives the process (a killed worker's job is found `running` with a lapsed lease).
 */
export class JobStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly jobs: Database<JobRecord, string>,
    private readonly idempotency: Database<IdempotentCreate, string>,
  ) {}

  static open(path: string): JobStore {
    const root = open({ path, overlappingSync: false });
    return new JobStore(root, root.openDB('jobs', {}), root.openDB('idempotency', {}));
  }

  get(id: string): JobRecord | undefined {
    return this.jobs.get(id);
  }

  all(): JobRecord[] {
    return [...this.jobs.getRange()].map(({ value }) => value);
  }

  /**
   * Stores a new job, with the idempotency key that made it when given; false (nothing
   * stored) when the id exists, or when another request took the idempotency key first.
   */
  async create(job: JobRecord, idempotent?: { key: string; requestHash: string }): Promise<boolean> {
    return this.root.transaction(() => {
      if (this.jobs.get(job.id) !== undefined) return false;
      if (idempotent !== undefined && this.idempotency.get(idempotent.key) !== undefined) return false;
      this.jobs.putSync(job.id, job);
      if (idempotent !== undefined)
        this.idempotency.putSync(idempotent.key, { jobId: job.id, requestHash: idempotent.requestHash });
      return true;
    });
  }

  idempotent(key: string): IdempotentCreate | undefined {
    return this.idempotency.get(key);
  }

  /** Applies `change` to the job as stored now, atomically; returns the new record (undefined: none, or `change` declined). */
  async update(id: string, change: (job: JobRecord) => JobRecord | undefined): Promise<JobRecord | undefined> {
    return this.root.transaction(() => {
      const job = this.jobs.get(id);
      const next = job === undefined ? undefined : change(job);
      if (next !== undefined) this.jobs.putSync(id, next);
      return next;
    });
  }

  close(): Promise<void> {
    return this.root.close();
  }
}
