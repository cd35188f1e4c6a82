import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cellsOf, NODE_COLUMNS, TableColumns, type TableRow } from './columns.js';
import { csvSink, ndjsonSink, parquetSink, type Sink } from './formats/sinks.js';
import { ExportVerificationError, verifyFile } from './verify.js';
import type { WrittenFile } from './write-tables.js';

const ROWS: TableRow[] = Array.from({ length: 5_000 }, (_, i) => ({
  slug: `candidacy:c-${i}`,
  kind: 'candidacy',
  state: 'co',
  tier: 'state',
  rev: 1,
  updatedAt: '2026-11-01T00:00:00.000Z',
  data: {
    confidence: i / 5_000,
    fields: { name: { value: `Candidate "${i}", jr`, claims: [{ value: `Candidate ${i}`, provenance: 'p' }] } },
    positions: i % 2 === 0 ? [] : null,
  },
}));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'civic-verify-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function written(format: 'csv' | 'ndjson' | 'parquet'): Promise<WrittenFile> {
  const t = new TableColumns(NODE_COLUMNS);
  for (const r of ROWS) t.observe(r.data);
  const columns = t.columns();
  const name = `candidacy.${format === 'ndjson' ? 'ndjson.gz' : format}`;
  const path = join(dir, name);
  const sink: Sink = (format === 'csv' ? csvSink : format === 'ndjson' ? ndjsonSink : parquetSink)(path, columns);
  for (const r of ROWS) await sink.write(r, cellsOf(r, columns));
  return { name, table: 'candidacy', format, rows: ROWS.length, path, written: await sink.close() };
}

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

describe('verifyFile', () => {
  it.each(['csv', 'ndjson', 'parquet'] as const)(
    'passes a whole %s file, recording its own size and SHA-256',
    async (format) => {
      const file = await written(format);
      const checked = await verifyFile(file);
      const bytes = await readFile(file.path);
      expect(checked.sha256).toBe(await sha256(file.path));
      expect(Number(checked.bytes)).toBe(bytes.length);
      expect(checked.rows).toBe(String(ROWS.length));
    },
  );

  it.each(['csv', 'ndjson', 'parquet'] as const)('fails a %s file cut short', async (format) => {
    const file = await written(format);
    await truncate(file.path, file.written.bytes - 100);
    await expect(verifyFile(file)).rejects.toThrow(ExportVerificationError);
  });

  it.each(['csv', 'ndjson', 'parquet'] as const)(
    'fails a %s file with one byte changed in the middle',
    async (format) => {
      const file = await written(format);
      const bytes = await readFile(file.path);
      bytes[bytes.length >> 1]! ^= 0xff;
      await writeFile(file.path, bytes);
      await expect(verifyFile(file)).rejects.toThrow(/SHA-256/);
    },
  );

  it('fails a gzip stream that was never finished, even when its bytes are the ones written', async () => {
    const file = await written('ndjson');
    // The stream without its trailer: what a writer that stopped before ending gzip leaves.
    const cut = (await readFile(file.path)).subarray(0, file.written.bytes - 8);
    await writeFile(file.path, cut);
    const unfinished = {
      ...file,
      written: { ...file.written, bytes: cut.length, sha256: createHash('sha256').update(cut).digest('hex') },
    };
    await expect(verifyFile(unfinished)).rejects.toThrow(/gzip trailer/);
  });

  it('fails a Parquet file whose footer counts other rows than were written', async () => {
    const file = await written('parquet');
    await expect(verifyFile({ ...file, rows: ROWS.length + 1 })).rejects.toThrow(/footer says 5000 rows/);
  });
});

describe('the files verified', () => {
  it('NDJSON holds each row as its JSON, one a line', async () => {
    const file = await written('ndjson');
    const lines = gunzipSync(await readFile(file.path))
      .toString('utf8')
      .split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual(ROWS.map((r) => JSON.stringify(r)));
  });

  it('Parquet types JSON columns as JSON (read back as the values), with statistics on the others only', async () => {
    const file = await written('parquet');
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(file.path));
    const element = (name: string) => meta.schema.find((e) => e.name === name);
    expect(element('fields')?.converted_type).toBe('JSON');
    expect(element('slug')?.converted_type).toBe('UTF8');
    const chunk = (name: string) =>
      meta.row_groups[0]!.columns.find((c) => c.meta_data?.path_in_schema[0] === name)!.meta_data!;
    expect(chunk('fields').statistics).toBeUndefined();
    expect(chunk('slug').statistics?.min_value).toBe('candidacy:c-0');
    const back = await parquetReadObjects({ file: await asyncBufferFromFile(file.path) });
    expect(back).toHaveLength(ROWS.length);
    const data = ROWS[1]!.data as Record<string, unknown>;
    expect(back[1]).toMatchObject({ slug: 'candidacy:c-1', rev: 1, confidence: data.confidence, fields: data.fields });
    expect(back[1]!.positions).toBeNull();
    expect(back[0]!.positions).toEqual([]);
  });
});
