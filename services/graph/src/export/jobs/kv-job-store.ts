import { createHash } from 'node:crypto';
import type { NatsConnection } from '@nats-io/nats-core';
import { Kvm, type KV } from '@nats-io/kv';
import type { JobRecord } from './job-record.js';
import type { IdempotentCreate, JobStore } from './job-store.js';

/**
 * Export jobs in a JetStream key-value bucket, shared by every graph replica and export
 * worker of a deployment on NATS: `job.<id>` → the record, `idem.<sha256(key id | key)>` →
 * the job an Idempotency-Key made. Creation is `create` (fails when the key exists), changes
 * are compare-and-set on the entry's revision, so two workers never both claim a job.
 */
export class KvJobStore implements JobStore {
  private constructor(private readonly kv: KV) {}

  /** Opens (creating when missing) the bucket. */
  static async open(nc: NatsConnection, bucket: string): Promise<KvJobStore> {
    return new KvJobStore(await new Kvm(nc).create(bucket, { history: 1 }));
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return (await this.entry(`job.${id}`))?.value;
  }

  async all(): Promise<JobRecord[]> {
    const keys: string[] = [];
    for await (const k of await this.kv.keys('job.>')) keys.push(k);
    const jobs = await Promise.all(keys.map((k) => this.entry(k)));
    return jobs.flatMap((e) => (e === undefined ? [] : [e.value]));
  }

  async create(job: JobRecord, idempotent?: { key: string; requestHash: string }): Promise<boolean> {
    try {
      if (idempotent !== undefined) {
        const taken: IdempotentCreate = { jobId: job.id, requestHash: idempotent.requestHash };
        await this.kv.create(idemKey(idempotent.key), JSON.stringify(taken));
      }
      await this.kv.create(`job.${job.id}`, JSON.stringify(job));
      return true;
    } catch (err) {
      if (isWrongSequence(err)) return false;
      throw err;
    }
  }

  async idempotent(key: string): Promise<IdempotentCreate | undefined> {
    const e = await this.kv.get(idemKey(key));
    return e === null || e.operation !== 'PUT' ? undefined : (e.json() as IdempotentCreate);
  }

  async update(id: string, change: (job: JobRecord) => JobRecord | undefined): Promise<JobRecord | undefined> {
    for (;;) {
      const e = await this.entry(`job.${id}`);
      const next = e === undefined ? undefined : change(e.value);
      if (e === undefined || next === undefined) return undefined;
      try {
        await this.kv.update(`job.${id}`, JSON.stringify(next), e.revision);
        return next;
      } catch (err) {
        // Changed by someone else since it was read: read again and re-apply.
        if (!isWrongSequence(err)) throw err;
      }
    }
  }

  /** The connection is its owner's to close. */
  async close(): Promise<void> {}

  private async entry(key: string): Promise<{ value: JobRecord; revision: number } | undefined> {
    const e = await this.kv.get(key);
    if (e === null || e.operation !== 'PUT') return undefined;
    return { value: e.json() as JobRecord, revision: e.revision };
  }
}

/** KV keys allow a narrow alphabet: an Idempotency-Key is any text, so its hash names it. */
function idemKey(key: string): string {
  return `idem.${createHash('sha256').update(key).digest('hex')}`;
}

/** JetStream's answer to a create of an existing key, or an update of a changed one. */
function isWrongSequence(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${String((err as { api_error?: unknown }).api_error ?? '')}` : '';
  return /wrong last sequence|10071/.test(text);
}
