import { createHash } from 'node:crypto';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { CreateExportRequest, ExportJob } from '@civicgraph/protos/civic/graph/v1/exports';
import {
  bulkExportCadence,
  InvalidParameterError,
  NotFoundError,
  PlanRequiredError,
  policyFingerprint,
  randomBase62,
} from '@civicgraph/kit';
import type { JobRecord } from './jobs/job-record.js';
import type { JobStore } from './jobs/job-store.js';
import type { ExportLinks } from './links.js';
import { MANIFEST_NAME } from './manifest.js';
import { exportSpecOf, FULL_EXPORT, type ExportSpec } from './spec.js';
import type { ExportStorage } from './storage/export-storage.js';

/** The longest Idempotency-Key honoured (Stripe's limit). */
const MAX_IDEMPOTENCY_KEY = 255;
/** The most bytes one ReadExportFile answers. */
export const MAX_READ = 1 << 20;
const EXPORT_ID = /^exp_[A-Za-z0-9_]{1,64}$/;

/**
 * The export rules, per the plan table (Build monthly, Enterprise on demand): who may
 * start an export, which exports a key sees, and the monthly schedule. Every export is
 * shaped for one policy shape (kit policyFingerprint): an on-demand export belongs to the
 * key that asked; a monthly one to every key of its shape, made the first time one of them
 * asks in a month, and again each month for the shapes that had one the month before.
 */
export class Exports {
  constructor(
    private readonly jobs: JobStore,
    private readonly storage: ExportStorage,
    private readonly links: ExportLinks,
    /** Called when a job is queued: wakes the worker, or puts the job on the work queue. */
    private readonly onQueued: (id: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Starts an on-demand export (Enterprise); an Idempotency-Key seen before answers its job. */
  async create(p: Principal, req: CreateExportRequest): Promise<ExportJob> {
    if (bulkExportCadence(p) !== 'on_demand')
      throw new PlanRequiredError(
        'On-demand exports are on the enterprise plan; this key gets the monthly exports (GET /v1/exports).',
        { field: 'bulk_export' },
      );
    const spec = exportSpecOf(req, p);
    const key = req.idempotencyKey;
    if (key.length > MAX_IDEMPOTENCY_KEY)
      throw new InvalidParameterError(
        'Idempotency-Key',
        `Idempotency-Key holds at most ${MAX_IDEMPOTENCY_KEY} characters.`,
      );
    const requestHash = hashOf(spec);
    const idemKey = `${p.keyId}|${key}`;
    if (key !== '') {
      const earlier = await this.jobs.idempotent(idemKey);
      if (earlier !== undefined) {
        if (earlier.requestHash !== requestHash)
          throw new InvalidParameterError(
            'Idempotency-Key',
            'This Idempotency-Key was used with a different request; use a new key for a new export.',
          );
        const job = await this.jobs.get(earlier.jobId);
        if (job !== undefined) return this.view(job);
      }
    }
    const job = this.newJob(p, spec, 'on_demand', '');
    // A request with the same key that got in first since the check above: answer as a repeat.
    if (!(await this.jobs.create(job, key === '' ? undefined : { key: idemKey, requestHash })))
      return this.create(p, req);
    this.onQueued(job.id);
    return this.view(job);
  }

  /** An export the key may see. */
  async get(p: Principal, id: string): Promise<ExportJob> {
    return this.view(await this.visible(p, id));
  }

  /** The exports the key may download, newest first; a Build or Enterprise key's monthly one is queued on first ask. */
  async list(p: Principal): Promise<ExportJob[]> {
    await this.ensureMonthly(p);
    return (await this.jobs.all())
      .filter((j) => visibleTo(j, p))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      .map((j) => this.view(j));
  }

  /**
   * Bytes of a file of a succeeded export: a file its manifest names, or the manifest. The
   * caller is the key (it must see the export) or, with `link`, whoever holds a signed link.
   */
  async read(
    p: Principal,
    id: string,
    name: string,
    range: { offset: number; length: number },
    link?: { expires: number; signature: string },
  ) {
    let job: JobRecord | undefined;
    if (link === undefined) job = await this.visible(p, id);
    else {
      this.links.verify(id, name, link.expires, link.signature);
      job = EXPORT_ID.test(id) ? await this.jobs.get(id) : undefined;
      if (job === undefined) throw new NotFoundError(`No export ${id}.`, { field: 'id' });
    }
    const { offset, length } = range;
    const known = name === MANIFEST_NAME || job.manifest?.files.some((f) => f.name === name) === true;
    if (job.status !== 'succeeded' || !known)
      throw new NotFoundError(`Export ${id} has no file ${name}.`, { field: 'name' });
    const size = await this.storage.size(id, name);
    if (size === undefined) throw new NotFoundError(`Export ${id} has no file ${name}.`, { field: 'name' });
    const data =
      offset >= size ? new Uint8Array() : await this.storage.read(id, name, offset, Math.min(length, MAX_READ));
    const sha256 = job.manifest?.files.find((f) => f.name === name)?.sha256 ?? '';
    return { data, size, sha256 };
  }

  /**
   * The monthly schedule: queues this month's export for every shape that had one last
   * month (the keys of that shape find it ready). Run at start and then hourly; a month's
   * export is made once whatever the number of runs (its id is the month and the shape).
   */
  async scheduleMonthly(): Promise<number> {
    const month = monthOf(this.now());
    const previous = monthOf(new Date(Date.UTC(this.now().getUTCFullYear(), this.now().getUTCMonth() - 1, 1)));
    let queued = 0;
    for (const j of await this.jobs.all())
      if (j.cadence === 'monthly' && j.month === previous && (await this.queueMonthly(j.principal, month))) queued++;
    return queued;
  }

  private async ensureMonthly(p: Principal): Promise<void> {
    if (bulkExportCadence(p) === null) return;
    await this.queueMonthly(p, monthOf(this.now()));
  }

  private async queueMonthly(p: Principal, month: string): Promise<boolean> {
    const id = monthlyId(month, policyFingerprint(p));
    if ((await this.jobs.get(id)) !== undefined) return false;
    const created = await this.jobs.create({ ...this.newJob(p, FULL_EXPORT, 'monthly', month), id });
    if (created) this.onQueued(id);
    return created;
  }

  private view(j: JobRecord): ExportJob {
    return jobView(j, this.links);
  }

  private async visible(p: Principal, id: string): Promise<JobRecord> {
    const job = EXPORT_ID.test(id) ? await this.jobs.get(id) : undefined;
    if (job === undefined || !visibleTo(job, p)) throw new NotFoundError(`No export ${id}.`, { field: 'id' });
    return job;
  }

  private newJob(p: Principal, spec: ExportSpec, cadence: JobRecord['cadence'], month: string): JobRecord {
    return {
      id: `exp_${randomBase62(20)}`,
      status: 'queued',
      cadence,
      month,
      ownerKeyId: p.keyId,
      shape: policyFingerprint(p),
      principal: p,
      spec,
      createdAt: this.now().toISOString(),
      startedAt: '',
      finishedAt: '',
      attempts: 0,
      leaseUntil: 0,
      rowsWritten: 0,
      rowsTotal: 0,
      error: '',
      manifest: undefined,
    };
  }
}

/** A monthly export's id: the month and the shape, so each is made once. */
function monthlyId(month: string, shape: string): string {
  return `exp_m${month.replace('-', '')}_${createHash('sha256').update(shape).digest('hex').slice(0, 16)}`;
}

/**
 * Whether a key sees an export: its own on-demand ones while it is Enterprise, and the
 * monthly ones of exactly its policy shape (the rows were shaped for what it may see).
 */
function visibleTo(job: JobRecord, p: Principal): boolean {
  const cadence = bulkExportCadence(p);
  if (cadence === null) return false;
  if (job.cadence === 'monthly') return job.shape === policyFingerprint(p);
  return cadence === 'on_demand' && job.ownerKeyId === p.keyId && job.shape === policyFingerprint(p);
}

function monthOf(d: Date): string {
  return d.toISOString().slice(0, 7);
}

function hashOf(spec: ExportSpec): string {
  return createHash('sha256').update(JSON.stringify(spec)).digest('hex');
}

/** A job as the contract carries it; `links` signs each file's download link. */
function jobView(j: JobRecord, links: ExportLinks): ExportJob {
  return {
    id: j.id,
    status: j.status,
    cadence: j.cadence,
    createdAt: j.createdAt,
    startedAt: j.startedAt,
    finishedAt: j.finishedAt,
    rowsWritten: String(j.rowsWritten),
    rowsTotal: String(j.rowsTotal),
    error: j.status === 'failed' ? j.error : '',
    manifest:
      j.manifest === undefined
        ? undefined
        : {
            ...j.manifest,
            files: j.manifest.files.map((f) => {
              const { expires, signature } = links.sign(j.id, f.name);
              return { ...f, linkExpires: String(expires), linkSignature: signature };
            }),
          },
    request: {
      kinds: j.spec.kinds,
      states: j.spec.states,
      formats: j.spec.formats,
      skipEdges: !j.spec.edges,
      idempotencyKey: '',
    },
  };
}
