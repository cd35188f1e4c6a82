import type { Request, Response } from 'express';
import { RangeNotSatisfiableError } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ExportFileChunk, ReadExportFileRequest } from '@civicgraph/protos/civic/graph/v1/exports';
import { etagMatches } from '../../http/respond.js';
import type { ExportsUpstream } from '../../upstream/exports-client.js';

/** Bytes asked of the graph service per call: what one ReadExportFile answers at most. */
const CHUNK = 1 << 20;

const CONTENT_TYPES: readonly [string, string][] = [
  ['.ndjson.gz', 'application/gzip'],
  ['.csv', 'text/csv; charset=utf-8'],
  ['.parquet', 'application/vnd.apache.parquet'],
  ['.json', 'application/json'],
];

/** A signed link's authority, instead of the key's. */
export interface LinkAuthority {
  expires: string;
  signature: string;
}

/**
 * Sends an export file, paging through the graph service a megabyte at a time (memory
 * holds one chunk; a slow client slows the reads, not the other way round). HTTP's own
 * download contract: a strong ETag (the file's SHA-256, so `If-None-Match` and `If-Range`
 * work across gateways), one `Range` (206 with Content-Range; 416 past the end), and the
 * checksum as `Repr-Digest` (RFC 9530) and `Civic-Checksum-SHA256` (hex, as the manifest).
 */
export async function sendExportFile(
  req: Request,
  res: Response,
  exports: ExportsUpstream,
  principal: Principal,
  file: { id: string; name: string; link?: LinkAuthority },
): Promise<void> {
  const ask = (offset: number, length: number): Promise<ExportFileChunk> =>
    exports.read(principal, {
      id: file.id,
      name: file.name,
      offset: String(offset),
      length,
      linkExpires: file.link?.expires ?? '0',
      linkSignature: file.link?.signature ?? '',
    } satisfies ReadExportFileRequest);
  const first = await ask(0, 1);
  const size = Number(first.size);
  const etag = first.sha256 === '' ? undefined : `"${first.sha256}"`;
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader(
    'Content-Type',
    CONTENT_TYPES.find(([ext]) => file.name.endsWith(ext))?.[1] ?? 'application/octet-stream',
  );
  res.setHeader('Content-Disposition', `attachment; filename="${file.name}"`);
  if (etag !== undefined) {
    res.setHeader('ETag', etag);
    res.setHeader('Repr-Digest', `sha-256=:${Buffer.from(first.sha256, 'hex').toString('base64')}:`);
    res.setHeader('Civic-Checksum-SHA256', first.sha256);
    if (etagMatches(req.get('If-None-Match'), etag)) {
      res.status(304).end();
      return;
    }
  }
  const ifRange = req.get('If-Range');
  const range = ifRange === undefined || ifRange === etag ? rangeOf(req.get('Range'), size) : undefined;
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${size}`);
    throw new RangeNotSatisfiableError(`The range is outside the file's ${size} bytes.`, { field: 'Range' });
  }
  const [start, end] = range ?? [0, size - 1];
  if (range !== undefined) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
  }
  res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
  for (let offset = start; offset <= end;) {
    const chunk = await ask(offset, Math.min(CHUNK, end - offset + 1));
    if (chunk.data.length === 0) break;
    offset += chunk.data.length;
    if (!res.write(chunk.data)) await new Promise((resolve) => res.once('drain', resolve));
    if (res.destroyed) return;
  }
  res.end();
}

/**
 * The one byte range of a `Range` header, inclusive; undefined for none (or a form we do not
 * serve, such as several ranges: the whole file is then the answer, as RFC 9110 allows).
 */
export function rangeOf(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null) return undefined;
  const [, from, to] = m as unknown as [string, string, string];
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return [start, end];
}
