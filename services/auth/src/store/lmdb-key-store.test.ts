import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { KeyService } from '../domain/key-service.js';
import { KeyHasher } from '../domain/key-hasher.js';
import { describeKeyStoreContract } from './key-store.contract.js';
import { LmdbKeyStore } from './lmdb-key-store.js';
import { runTsModule } from '@civicgraph/kit/testing';
import { sampleRecord, sampleSecret } from './sample-record.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'civic-auth-lmdb-'));
  dirs.push(dir);
  return join(dir, 'auth');
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describeKeyStoreContract('LmdbKeyStore', async () => LmdbKeyStore.open({ path: await freshDir() }));

/** Every byte of every file LMDB keeps in `dir`. */
async function filesBytes(dir: string): Promise<Buffer> {
  const names = await readdir(dir);
  return Buffer.concat(await Promise.all(names.map((n) => readFile(join(dir, n)))));
}

const hasher = new KeyHasher(Buffer.alloc(32, 7));
const buildKey = { environment: Environment.ENVIRONMENT_LIVE, plan: Plan.PLAN_BUILD, label: 'ci', pinnedVersion: '' };

describe('LmdbKeyStore on disk', () => {
  let path: string;
  beforeEach(async () => {
    path = await freshDir();
  });

  it('never writes the plain key to its files, only its peppered digests', async () => {
    const store = LmdbKeyStore.open({ path });
    const { key, record } = await new KeyService({ store, hasher }).create(buildKey);
    await store.close();
    const bytes = await filesBytes(path);
    // Positive controls: the scan does see what the store wrote.
    expect(bytes.includes(hasher.lookup(key))).toBe(true);
    expect(bytes.includes(record.keyId)).toBe(true);
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(key.slice(8))).toBe(false);
    expect(bytes.includes(Buffer.from(key, 'utf16le'))).toBe(false);
  });

  it('keeps keys and revocations after close and reopen', async () => {
    const first = LmdbKeyStore.open({ path });
    const service = new KeyService({ store: first, hasher });
    const kept = await service.create(buildKey);
    const revoked = await service.create(buildKey);
    await service.revoke(revoked.record.keyId);
    await first.close();

    const reopened = new KeyService({ store: LmdbKeyStore.open({ path }), hasher });
    expect((await reopened.authenticate(kept.key)).keyId).toBe(kept.record.keyId);
    await expect(reopened.authenticate(revoked.key)).rejects.toThrow('revoked');
    expect((await reopened.list()).map((r) => r.keyId).sort()).toEqual(
      [kept.record.keyId, revoked.record.keyId].sort(),
    );
  });

  it('shows a key created or revoked through one handle to another handle on the same path at once', async () => {
    const server = LmdbKeyStore.open({ path });
    const cli = LmdbKeyStore.open({ path });
    try {
      // This read opens the server's read transaction in the current event turn; without an
      // explicit reset lmdb-js would keep serving that snapshot until the next macrotask.
      expect(await server.findByLookup('a'.repeat(64))).toBeUndefined();
      await cli.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
      expect((await server.findByLookup('a'.repeat(64)))?.record.keyId).toBe('key_a');
      await cli.revoke('key_a', '2026-11-03T00:00:00.000Z');
      expect((await server.get('key_a'))?.revokedAt).toBe('2026-11-03T00:00:00.000Z');
      expect(await server.list()).toHaveLength(1);
    } finally {
      await Promise.all([server.close(), cli.close()]);
    }
  });

  it('keeps serving through one handle after another handle on the same path closes', async () => {
    const server = LmdbKeyStore.open({ path });
    const cli = LmdbKeyStore.open({ path });
    await cli.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
    await cli.close();
    expect((await server.get('key_a'))?.keyId).toBe('key_a');
    await server.create({ record: sampleRecord('key_b'), secret: sampleSecret('b'.repeat(64)) });
    expect(await server.list()).toHaveLength(2);
    await server.close();
  });
});

describe('LmdbKeyStore shared with another process', () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const storeUrl = pathToFileURL(join(here, 'lmdb-key-store.ts')).href;
  const sampleUrl = pathToFileURL(join(here, 'sample-record.ts')).href;
  let path: string;
  let server: LmdbKeyStore;
  beforeEach(async () => {
    path = await freshDir();
    server = LmdbKeyStore.open({ path });
  });
  afterEach(async () => {
    await server.close();
  });

  /** Child code that opens the store at `path` as `store`, then runs `body`. */
  function inChild(body: string): string {
    return `const { LmdbKeyStore } = await import(${JSON.stringify(storeUrl)});
const store = LmdbKeyStore.open({ path: ${JSON.stringify(path)} });
${body}`;
  }

  it('sees keys the other process creates, even past the initial map size, on its next read', async () => {
    expect(await server.list()).toEqual([]);
    // 2,000 records (~1 MB) outgrow lmdb-js's initial 128 KB map, so the child must grow the
    // file while this process has it mapped.
    await runTsModule(
      inChild(`const { sampleRecord, sampleSecret } = await import(${JSON.stringify(sampleUrl)});
for (let i = 0; i < 2000; i++) await store.create({ record: sampleRecord('key_' + i), secret: sampleSecret(String(i).padStart(64, '0')) });
await store.close();`),
    );
    expect(await server.list()).toHaveLength(2000);
    expect((await server.findByLookup('1999'.padStart(64, '0')))?.record.keyId).toBe('key_1999');
  });

  it('sees a revocation by the other process on its next read', async () => {
    await server.create({ record: sampleRecord('key_a'), secret: sampleSecret('a'.repeat(64)) });
    expect((await server.get('key_a'))?.revokedAt).toBe('');
    await runTsModule(inChild(`await store.revoke('key_a', '2026-11-03T00:00:00.000Z'); await store.close();`));
    expect((await server.findByLookup('a'.repeat(64)))?.record.revokedAt).toBe('2026-11-03T00:00:00.000Z');
  });

  it('keeps a key whose writer is killed right after create returns, without closing', async () => {
    const { stdout } = await runTsModule(
      inChild(`const { sampleRecord, sampleSecret } = await import(${JSON.stringify(sampleUrl)});
await store.create({ record: sampleRecord('key_killed'), secret: sampleSecret('k'.repeat(64)) });
process.stdout.write('created', () => process.kill(process.pid, 'SIGKILL'));`),
      'SIGKILL',
    );
    expect(stdout).toBe('created');
    expect((await server.findByLookup('k'.repeat(64)))?.record.keyId).toBe('key_killed');
    await server.create({ record: sampleRecord('key_after'), secret: sampleSecret('f'.repeat(64)) });
    expect(await server.list()).toHaveLength(2);
  });
});
