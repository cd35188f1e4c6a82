import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import type { ExportFile } from '@civicgraph/protos/civic/graph/v1/exports';
import type { WrittenFile } from './write-tables.js';

/** A staged file failed its check: it is never published. */
export class ExportVerificationError extends Error {
  constructor(file: string, why: string) {
    super(`${file}: ${why}`);
    this.name = 'ExportVerificationError';
  }
}

/**
 * Reads a staged file back before it may be published: its SHA-256 and size (what the
 * manifest records), and that it holds the rows the writer counted — a gzip stream that
 * ends cleanly with one line per row, a Parquet footer whose row count matches. A file cut
 * short (a full disk, a killed write) fails here instead of reaching a client.
 */
export async function verifyFile(file: WrittenFile): Promise<ExportFile> {
  const [sha256, bytes] = await Promise.all([hashOf(file.path), stat(file.path).then((s) => s.size)]);
  if (file.format === 'ndjson' || file.format === 'geojsonseq') {
    const lines = await gzipLines(file.path).catch((err: unknown) => {
      throw new ExportVerificationError(file.name, `not a whole gzip stream (${String(err)})`);
    });
    if (lines !== file.rows) throw new ExportVerificationError(file.name, `${lines} lines for ${file.rows} rows`);
  } else if (file.format === 'parquet') {
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(file.path));
    if (Number(meta.num_rows) !== file.rows)
      throw new ExportVerificationError(file.name, `footer says ${meta.num_rows} rows, ${file.rows} written`);
  }
  return {
    name: file.name,
    table: file.table,
    format: file.format,
    rows: String(file.rows),
    bytes: String(bytes),
    sha256,
    // Links are signed per answer, never stored.
    linkExpires: '0',
    linkSignature: '',
  };
}

async function hashOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function gzipLines(path: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(path).pipe(createGunzip())) {
    const bytes = chunk as Buffer;
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
  }
  return lines;
}
