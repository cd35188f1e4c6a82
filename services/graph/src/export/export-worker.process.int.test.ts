import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { scaled } from '@civicgraph/kit/testing';
import { LmdbSnapshots } from '../store/snapshot/lmdb-snapshot.js';
import { ExportLinks } from './links.js';
import { ExportWorker } from './export-worker.js';
import { Exports } from './exports.js';
import { LmdbJobStore } from './jobs/job-store.js';
import { storeOfParties } from './test-parties.js';
import { FsExportStorage } from './storage/fs-storage.js';

/**
 * Restart safety with a real process dying: a worker is SIGKILLed while it writes an export's
 * files. Nothing is published (no file, no manifest, the job not succeeded); a worker started
 * afterwards takes the job over once the dead one's lease lapses, clears its staging, and
 * publishes the whole export, every file matching the manifest's checksum.
 */
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const PARTIES = 3_000;
const log = pino({ level: 'silent' });
const enterprise: Principal = {
  keyId: 'key_worker_test',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  pinnedVersion: '',
  rateLimitPerMinute: 0,
  entitlements: { contact: false, geography: true, states: [], tiers: [] },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'civic-export-worker-'));
  const store = await storeOfParties(join(dir, 'graph'), PARTIES, (i) => ({
    name: `Party ${i}`,
    abbreviation: `P${i}`,
  }));
  await store.close();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function childDies(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(FIXTURES, 'ts-register.mjs'),
        join(FIXTURES, 'export-worker-child.mjs'),
        join(dir, 'graph'),
        join(dir, 'exports'),
        // Past the first rows read to learn the columns (1,000), half-way through writing them.
        String(1_000 + PARTIES / 2),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve(out) : reject(new Error(`child exited (code ${code}):\n${out}\n${err}`)),
    );
  });
}

describe('an export worker killed mid-export (SIGKILL)', () => {
  it(
    'publishes nothing, and the job is taken over and published whole by the next worker',
    async () => {
      const exportsPath = join(dir, 'exports');
      let jobs = LmdbJobStore.open(join(exportsPath, 'jobs'));
      const storage = new FsExportStorage(join(exportsPath, 'files'));
      const exports = new Exports(jobs, storage, new ExportLinks(Buffer.from('test')), () => undefined);
      const job = await exports.create(enterprise, {
        kinds: ['party'],
        states: [],
        formats: [],
        skipEdges: false,
        idempotencyKey: '',
      });
      await jobs.close();

      expect(await childDies()).toContain('dying');
      jobs = LmdbJobStore.open(join(exportsPath, 'jobs'));
      const killed = (await jobs.get(job.id))!;
      expect(killed).toMatchObject({ status: 'running', attempts: 1, manifest: undefined });
      expect(existsSync(join(exportsPath, 'files', job.id))).toBe(false);
      // The dead worker's partial files are in staging, never where readers look.
      expect(readdirSync(join(exportsPath, 'files', '.staging', job.id)).length).toBeGreaterThan(0);

      const snapshots = LmdbSnapshots.open(join(dir, 'graph'));
      const worker = new ExportWorker({ jobs, storage, snapshot: () => snapshots.snapshot(), log });
      // Taken over once the dead worker's lease (300 ms) lapses.
      await expect.poll(() => worker.drain(), { timeout: scaled(10_000), interval: 100 }).toBe(1);
      const done = (await jobs.get(job.id))!;
      expect(done).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(existsSync(join(exportsPath, 'files', '.staging', job.id))).toBe(false);
      const files = done.manifest!.files;
      expect(files.map((f) => f.name).sort()).toEqual([
        'edges.csv',
        'edges.ndjson.gz',
        'edges.parquet',
        'party.csv',
        'party.ndjson.gz',
        'party.parquet',
      ]);
      for (const f of files) {
        const bytes = readFileSync(join(exportsPath, 'files', job.id, f.name));
        expect(createHash('sha256').update(bytes).digest('hex'), f.name).toBe(f.sha256);
        expect(String(bytes.length)).toBe(f.bytes);
      }
      expect(files.find((f) => f.name === 'party.csv')!.rows).toBe(String(PARTIES));
      const manifest = JSON.parse(readFileSync(join(exportsPath, 'files', job.id, 'manifest.json'), 'utf8'));
      expect(manifest.files).toHaveLength(6);
      await snapshots.close();
      await jobs.close();
    },
    scaled(60_000),
  );
});
