import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
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
 * Reads a staged file back before it may be published, and checks it against what its
 * writer handed to the disk: the same size and the same SHA-256 (the digest the manifest
 * records is the file's, read back), so a file cut short or altered anywhere (a full disk,
 * a killed write, a bad block) fails here instead of reaching a client. A gzip file must
 * also start as gzip and end with a trailer whose length is the text written (the stream
 * was finished, not abandoned); a Parquet file's footer must count the rows written.
 */
export async function verifyFile(file: WrittenFile): Promise<ExportFile> {
  const { sha256, bytes, head, tail } = await readBack(file.path).catch((err: unknown) => {
    throw new ExportVerificationError(file.name, `unreadable (${String(err)})`);
  });
  const fail = (why: string) => new ExportVerificationError(file.name, why);
  if (bytes !== file.written.bytes) throw fail(`${bytes} bytes on disk, ${file.written.bytes} written`);
  if (sha256 !== file.written.sha256) throw fail('its SHA-256 is not that of the bytes written');
  if (file.format === 'ndjson' || file.format === 'geojsonseq') {
    if (head[0] !== 0x1f || head[1] !== 0x8b) throw fail('not a gzip stream');
    const textBytes = tail.length === 8 ? tail.readUInt32LE(4) : -1;
    if (textBytes !== (file.written.textBytes ?? 0) % 2 ** 32)
      throw fail(`its gzip trailer records ${textBytes} bytes of text, ${file.written.textBytes} written`);
  } else if (file.format === 'parquet') {
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(file.path)).catch((err: unknown) => {
      throw fail(`no readable Parquet footer (${String(err)})`);
    });
    if (Number(meta.num_rows) !== file.rows) throw fail(`footer says ${meta.num_rows} rows, ${file.rows} written`);
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

/** One read of the file: its SHA-256, size, first 2 and last 8 bytes. */
async function readBack(path: string): Promise<{ sha256: string; bytes: number; head: Buffer; tail: Buffer }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const b = chunk as Buffer;
    hash.update(b);
    bytes += b.length;
    if (head.length < 2) head = Buffer.concat([head, b.subarray(0, 2 - head.length)]);
    tail = Buffer.concat([tail, b.subarray(Math.max(0, b.length - 8))]).subarray(-8);
  }
  return { sha256: hash.digest('hex'), bytes, head, tail };
}
