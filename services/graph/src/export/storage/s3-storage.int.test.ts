import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// s3rver has no types of its own: the little used here is typed below.
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import { S3ExportStorage } from './s3-storage.js';

/**
 * The S3 adapter's requests against s3rver, an S3 look-alike server in this process (no real
 * S3 or MinIO runs here): PUT of a staged file as a stream, HEAD for its size (404 → none),
 * GET of byte ranges, path-style. s3rver does not check SigV4 signatures; sigv4.test.ts
 * checks the signer against AWS's worked example instead.
 */
interface FakeS3 {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

let server: FakeS3;
let dir: string;
let storage: S3ExportStorage;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'civic-s3-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 'server'),
    configureBuckets: [{ name: 'exports' }],
  }) as FakeS3;
  const { port } = await server.run();
  storage = new S3ExportStorage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'exports',
    prefix: 'civic/',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    stagingDir: join(dir, 'staging'),
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('S3ExportStorage', () => {
  it('publishes a staged file, then answers its size and any byte range of it', async () => {
    const staged = await storage.stage('exp_s3test');
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    writeFileSync(join(staged, 'party.csv'), bytes);
    expect(await storage.size('exp_s3test', 'party.csv')).toBeUndefined();
    await storage.publish('exp_s3test', 'party.csv', join(staged, 'party.csv'));
    expect(await storage.size('exp_s3test', 'party.csv')).toBe(bytes.length);
    expect(Buffer.from(await storage.read('exp_s3test', 'party.csv', 0, 10)).equals(bytes.subarray(0, 10))).toBe(true);
    const tail = await storage.read('exp_s3test', 'party.csv', 299_990, 100);
    expect(Buffer.from(tail).equals(bytes.subarray(299_990))).toBe(true);
    await storage.unstage('exp_s3test');
  });
});
