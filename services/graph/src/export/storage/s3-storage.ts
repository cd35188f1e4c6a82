import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ExportStorage } from './export-storage.js';
import { EMPTY_SHA256, signV4, UNSIGNED_PAYLOAD, type S3Credentials } from './sigv4.js';

/** Where an S3-compatible bucket is, and how to sign for it. */
export interface S3StorageOptions extends S3Credentials {
  /** The service's URL, e.g. `https://s3.us-east-1.amazonaws.com` or `http://minio:9000`. */
  endpoint: string;
  bucket: string;
  /** Prefix of every object key, e.g. `exports/`. */
  prefix: string;
  /** Local folder to build files in before they are uploaded. */
  stagingDir: string;
}

/**
 * Export files in an S3-compatible bucket (clusters, where replicas share no disk): objects
 * `<prefix><export>/<name>`, path-style URLs (what MinIO and most S3-compatible services
 * serve), requests signed with SigV4 (sigv4.ts, checked against AWS's worked example). Files
 * are built in a local staging folder and uploaded only once verified; an S3 PUT is atomic
 * (an object is visible whole or not at all), so publishing keeps the filesystem adapter's
 * promise. Single PUTs: 5 GB per file at most (S3's limit without multipart upload).
 */
export class S3ExportStorage implements ExportStorage {
  constructor(
    private readonly o: S3StorageOptions,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async stage(exportId: string): Promise<string> {
    const dir = join(this.o.stagingDir, exportId);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async publish(exportId: string, name: string, stagedPath: string): Promise<void> {
    const size = (await stat(stagedPath)).size;
    const body = Readable.toWeb(createReadStream(stagedPath)) as ReadableStream<Uint8Array>;
    const res = await this.send('PUT', exportId, name, { 'content-length': String(size) }, UNSIGNED_PAYLOAD, body);
    if (!res.ok) throw new Error(`S3 PUT ${this.key(exportId, name)}: ${res.status} ${await res.text()}`);
  }

  async size(exportId: string, name: string): Promise<number | undefined> {
    const res = await this.send('HEAD', exportId, name, {}, EMPTY_SHA256);
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`S3 HEAD ${this.key(exportId, name)}: ${res.status}`);
    return Number(res.headers.get('content-length'));
  }

  async read(exportId: string, name: string, offset: number, length: number): Promise<Uint8Array> {
    const range = { range: `bytes=${offset}-${offset + length - 1}` };
    const res = await this.send('GET', exportId, name, range, EMPTY_SHA256);
    if (res.status === 416) return new Uint8Array();
    if (!res.ok) throw new Error(`S3 GET ${this.key(exportId, name)}: ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }

  async unstage(exportId: string): Promise<void> {
    await rm(join(this.o.stagingDir, exportId), { recursive: true, force: true });
  }

  private key(exportId: string, name: string): string {
    return `${this.o.prefix}${exportId}/${name}`;
  }

  private send(
    method: string,
    exportId: string,
    name: string,
    headers: Record<string, string>,
    payloadHash: string,
    body?: ReadableStream<Uint8Array>,
  ): Promise<Response> {
    const url = new URL(`${this.o.endpoint.replace(/\/$/, '')}/${this.o.bucket}/${this.key(exportId, name)}`);
    const signed = signV4(this.o, { method, url, headers, payloadHash }, new Date());
    // `host` is the fetch's own to set; it was signed as the URL's host.
    const { host: _, ...send } = signed;
    return this.fetchFn(url, { method, headers: send, ...(body === undefined ? {} : { body, duplex: 'half' }) });
  }
}
