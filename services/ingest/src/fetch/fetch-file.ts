import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { SourceFile } from '../registry.js';

/** Where sources are read from: the public hosts, or a mirror (a folder, or an HTTP base) laid out like shared/data. */
export type Origin = { kind: 'public' } | { kind: 'folder'; path: string } | { kind: 'http'; base: string };

/** What an earlier fetch of a file said, for a conditional request. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** A fetched file: its bytes (unzipped when the public copy is a zip), and what the transport says of it. */
export type Fetched =
  { status: 'not-modified' } | { status: 'fetched'; bytes: Uint8Array; validators: Validators; location: string };

/** A source file that could not be fetched or read, with why. */
export class FetchError extends Error {
  constructor(
    readonly location: string,
    reason: string,
  ) {
    super(`${location}: ${reason}`);
    this.name = 'FetchError';
  }
}

/** How long one HTTP fetch may take. */
const TIMEOUT_MS = 120_000;

/**
 * Fetches one file from its origin. Over HTTP the request is conditional (If-None-Match,
 * If-Modified-Since from `previous`), and a 304 is `not-modified`; a mirror folder is read
 * as it is (the caller compares content hashes). The public copy of a zipped file is
 * unzipped to the entry the registry names; a mirror keeps the entry itself.
 */
export async function fetchFile(file: SourceFile, origin: Origin, previous: Validators = {}): Promise<Fetched> {
  if (origin.kind === 'folder') return fromFolder(file, origin.path);
  const location = origin.kind === 'http' ? `${origin.base.replace(/\/$/, '')}/${mirrorPath(file)}` : publicUrl(file);
  const fetched = await fromHttp(location, previous);
  if (fetched.status === 'not-modified' || origin.kind === 'http' || file.unzip === undefined) return fetched;
  return { ...fetched, bytes: unzipEntry(fetched.bytes, file.unzip, location) };
}

function mirrorPath(file: SourceFile): string {
  if (file.mirror === undefined)
    throw new FetchError(file.url ?? file.name, 'mirrors do not carry this file; fetch it from its public host');
  return file.mirror;
}

function publicUrl(file: SourceFile): string {
  if (file.url === undefined)
    throw new FetchError(
      file.name,
      "the public host serves this file inside another of the source's files; only mirrors keep it loose",
    );
  return file.url;
}

async function fromFolder(file: SourceFile, folder: string): Promise<Fetched> {
  const path = join(folder, mirrorPath(file));
  try {
    // No validators: a copy's file time says when it was copied; content hashes tell changes.
    return { status: 'fetched', bytes: await readFile(path), validators: {}, location: path };
  } catch (err) {
    throw new FetchError(path, `cannot read the mirror's copy (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

async function fromHttp(url: string, previous: Validators): Promise<Fetched> {
  const headers: Record<string, string> = {};
  if (previous.etag !== undefined) headers['If-None-Match'] = previous.etag;
  if (previous.lastModified !== undefined) headers['If-Modified-Since'] = previous.lastModified;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
  } catch (err) {
    throw new FetchError(
      url,
      `unreachable (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`,
    );
  }
  if (res.status === 304) return { status: 'not-modified' };
  if (!res.ok) throw new FetchError(url, `HTTP ${res.status} ${res.statusText}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length === 0) throw new FetchError(url, 'the response is empty');
  const validators: Validators = {
    ...(res.headers.get('etag') === null ? {} : { etag: res.headers.get('etag')! }),
    ...(res.headers.get('last-modified') === null ? {} : { lastModified: res.headers.get('last-modified')! }),
  };
  return { status: 'fetched', bytes, validators, location: url };
}

function unzipEntry(bytes: Uint8Array, entry: string, location: string): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => f.name === entry || f.name.endsWith(`/${entry}`) });
  } catch (err) {
    throw new FetchError(location, `not a readable zip (${String(err)})`);
  }
  const found = Object.values(files)[0];
  if (found === undefined) throw new FetchError(location, `the zip holds no ${entry}`);
  return found;
}
