import { open, type Database, type RootDatabase } from 'lmdb';
import type { JobRecord } from './job-record.js';

/** What an idempotent create remembers: the job it made, from which request. */
export interface IdempotentCreate {
  jobId: string;
  requestHash: string;
}

/**
 * Where export jobs are recorded (the JobStore port): LMDB beside the graph in one
 * deployment (LmdbJobStore), or a JetStream key-value bucket every graph replica and worker
 * shares (KvJobStore, with NATS). `update` is atomic per job: the worker claims jobs with it.
 */
export interface JobStore {
  get(id: string): Promise<JobRecord | undefined>;
  all(): Promise<JobRecord[]>;
  /**
   * Stores a new job, with the idempotency key that made it when given; false (nothing
   * stored) when the id exists, or when another request took the idempotency key first.
   */
  create(job: JobRecord, idempotent?: { key: string; requestHash: string }): Promise<boolean>;
  idempotent(key: string): Promise<IdempotentCreate | undefined>;
  /** Applies `change` to the job as stored now, atomically; returns the new record (undefined: none, or `change` declined). */
  update(id: string, change: (job: JobRecord) => JobRecord | undefined): Promise<JobRecord | undefined>;
  close(): Promise<void>;
}

/**
 * Export jobs on LMDB, beside the graph: `jobs` (id → record) and `idempotency`
 * (`<keyId>|<Idempotency-Key>` → the job it created). Jobs are few (one per export), so
 * listing reads them all. Every change is one synced transaction, so a job's state
 * survives the process (a killed worker's job is found `running` with a lapsed lease).
 */
export class LmdbJobStore implements JobStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly jobs: Database<JobRecord, string>,
    private readonly idempotency: Database<IdempotentCreate, string>,
  ) {}

  static open(path: string): LmdbJobStore {
    const root = open({ path, overlappingSync: false });
    return new LmdbJobStore(root, root.openDB('jobs', {}), root.openDB('idempotency', {}));
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return this.jobs.get(id);
  }

  async all(): Promise<JobRecord[]> {
    return [...this.jobs.getRange()].map(({ value }) => value);
  }

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

  async idempotent(key: string): Promise<IdempotentCreate | undefined> {
    return this.idempotency.get(key);
  }

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
