import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { probeNats, randomBase62, serviceAvailability } from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import { LmdbGraphStore } from '../../store/lmdb/lmdb-graph-store.js';
import { ExportWorker } from '../export-worker.js';
import { Exports } from '../exports.js';
import { ExportLinks } from '../links.js';
import { FsExportStorage } from '../storage/fs-storage.js';
import { JetStreamJobQueue } from './job-queue.js';
import { KvJobStore } from './kv-job-store.js';

/**
 * Export jobs with NATS: records in a JetStream key-value bucket, handed out on a work queue.
 * Two workers on their own connections share the queue and each job runs once; a worker that
 * takes a job and dies without acknowledging it (its connection closed mid-job) has the job
 * handed to the other after the ack wait, which publishes it.
 */
const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${url}`, () => probeNats(url));
const log = pino({ level: 'silent' });
const enterprise: Principal = {
  keyId: 'key_js_test',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  pinnedVersion: '',
  rateLimitPerMinute: 0,
  entitlements: { contact: false, geography: true, states: [], tiers: [] },
};

describeWithService('export jobs on NATS JetStream', nats, () => {
  let dir: string;
  let word: string;
  let store: LmdbGraphStore;
  const connections: NatsConnection[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'civic-export-js-'));
    word = `t${randomBase62(8).toLowerCase()}`;
    store = await LmdbGraphStore.open(join(dir, 'graph'));
    const put = Array.from({ length: 50 }, (_, i) => ({
      node: {
        slug: `party:p${i}`,
        kind: 'party' as const,
        state: '',
        tier: '' as const,
        data: { name: `Party ${i}`, abbreviation: `P${i}` },
        rev: 1,
        updatedAt: '2026-11-01T00:00:00.000Z',
      },
      expectRev: 0,
    }));
    await store.commit({ put, remove: [], link: [], unlink: [], events: [] });
  });
  afterEach(async () => {
    for (const nc of connections.splice(0)) if (!nc.isClosed()) await nc.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** One worker process's worth: its own connection, job store client, queue consumer. */
  async function worker(name: string, options: { ackWaitMs: number; dieInside?: boolean }) {
    const nc = await connect({ servers: url, name });
    connections.push(nc);
    const jobs = await KvJobStore.open(nc, `civic_exports_${word}`);
    const queue = await JetStreamJobQueue.open(nc, {
      word,
      logger: log,
      ackWaitMs: options.ackWaitMs,
      retryDelayMs: 100,
    });
    const storage = new FsExportStorage(join(dir, 'files'));
    const w = new ExportWorker({ jobs, storage, snapshot: () => store.snapshot(), log, leaseMs: 300 });
    const ran: string[] = [];
    await queue.consume(async (id, working) => {
      ran.push(id);
      if (options.dieInside) {
        // Takes the job (claims it in the store), then its process "dies": the connection goes.
        await jobs.update(id, (j) => ({ ...j, status: 'running', attempts: 1, leaseUntil: Date.now() + 300 }));
        await nc.close();
        return new Promise(() => {});
      }
      return w.runOne(id, working);
    });
    return {
      jobs,
      queue,
      ran,
      exports: new Exports(jobs, storage, new ExportLinks(Buffer.from('t')), (id) => void queue.enqueue(id)),
    };
  }

  const request = { kinds: ['party'], states: [], formats: ['csv'], skipEdges: true, idempotencyKey: '' };

  test('two workers share the queue: each job runs once, and succeeds', async () => {
    const a = await worker('a', { ackWaitMs: 30_000 });
    const b = await worker('b', { ackWaitMs: 30_000 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await a.exports.create(enterprise, request)).id);
    await expect
      .poll(async () => (await Promise.all(ids.map((id) => a.jobs.get(id)))).map((j) => j?.status), {
        timeout: scaled(20_000),
        interval: 100,
      })
      .toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect([...a.ran, ...b.ran].sort()).toEqual([...ids].sort());
    const done = (await b.jobs.get(ids[0]!))!;
    expect(done.manifest?.files.map((f) => f.name)).toEqual(['party.csv']);
    expect(done.manifest?.files[0]?.rows).toBe('50');
    await a.queue.stop();
    await b.queue.stop();
  });

  test('a job whose worker died is handed to another after the ack wait, and published once', async () => {
    const dying = await worker('dying', { ackWaitMs: 1_000, dieInside: true });
    const job = await dying.exports.create(enterprise, request);
    await expect.poll(() => dying.ran, { timeout: scaled(10_000), interval: 50 }).toEqual([job.id]);
    const survivor = await worker('survivor', { ackWaitMs: 1_000 });
    await expect
      .poll(async () => (await survivor.jobs.get(job.id))?.status, { timeout: scaled(20_000), interval: 100 })
      .toBe('succeeded');
    expect(survivor.ran).toEqual([job.id]);
    expect((await survivor.jobs.get(job.id))?.attempts).toBe(2);
    await survivor.queue.stop();
  });

  test('an Idempotency-Key makes one job, kept in the bucket', async () => {
    const a = await worker('idem', { ackWaitMs: 30_000 });
    const first = await a.exports.create(enterprise, { ...request, idempotencyKey: 'same key, any text: ok?' });
    const again = await a.exports.create(enterprise, { ...request, idempotencyKey: 'same key, any text: ok?' });
    expect(again.id).toBe(first.id);
    await expect(
      a.exports.create(enterprise, { ...request, formats: ['ndjson'], idempotencyKey: 'same key, any text: ok?' }),
    ).rejects.toMatchObject({ field: 'Idempotency-Key' });
    await a.queue.stop();
  });
});
