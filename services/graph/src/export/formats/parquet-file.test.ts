import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cell, Column, ColumnType } from '../columns.js';
import { ParquetFile } from './parquet-file.js';
import { compareCodePoints } from './string-stats.js';

const column = (name: string, type: ColumnType): Column => ({ name, type, get: () => undefined });
const COLUMNS = [column('slug', 'string'), column('rev', 'int'), column('state', 'string')];
const ELEMENTS: SchemaElement[] = [
  { name: 'root', num_children: 3 },
  { name: 'slug', repetition_type: 'OPTIONAL', type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  { name: 'rev', repetition_type: 'OPTIONAL', type: 'INT32' },
  { name: 'state', repetition_type: 'OPTIONAL', type: 'BYTE_ARRAY', converted_type: 'UTF8' },
];

/** The file hyparquet-writer makes of the same rows on its own, statistics and all. */
function itsOwnFile(rows: Cell[][], groupSize: number): Uint8Array {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({ writer, schema: ELEMENTS, createdBy: 'civicgraph export' });
  for (let at = 0; at < rows.length; at += groupSize) {
    const group = rows.slice(at, at + groupSize);
    const columnData = COLUMNS.map((c, i) => ({ name: c.name, data: group.map((r) => r[i]) }));
    void parquet.write({ columnData, rowGroupSize: group.length });
  }
  void parquet.finish();
  return writer.getBytes();
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'civic-parquet-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('ParquetFile', () => {
  it('writes the very file hyparquet-writer does, string statistics included, across row groups', async () => {
    const states = ['co', 'ak', null, 'wy', 'ny', '\u{1f600}x', '\uff01', 'é'];
    // Unique slugs sharing a long prefix (one page each), repeated states (a dictionary), nulls.
    const rows: Cell[][] = Array.from({ length: 9_500 }, (_, i) => [
      i % 997 === 0 ? null : `candidacy:some-long-shared-prefix-${(i * 7919) % 9_500}`,
      i,
      states[i % states.length]!,
    ]);
    const path = join(dir, 't.parquet');
    const file = new ParquetFile(path, COLUMNS);
    for (const r of rows) file.write(r);
    file.close();
    expect(Buffer.from(await readFile(path)).equals(Buffer.from(itsOwnFile(rows, 4_000)))).toBe(true);
  });
});

describe('JSON columns', () => {
  it('are written plain, repeated values too, and read back as their JSON', async () => {
    const columns = [column('slug', 'string'), column('positions', 'json')];
    const rows: Cell[][] = Array.from({ length: 5_000 }, (_, i) => [`slug-${i}`, i % 3 === 0 ? null : '[]']);
    const path = join(dir, 'j.parquet');
    const file = new ParquetFile(path, columns);
    for (const r of rows) file.write(r);
    file.close();
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(path));
    for (const group of meta.row_groups) expect(group.columns[1]!.meta_data!.encodings).toEqual(['PLAIN']);
    const back = await parquetReadObjects({ file: await asyncBufferFromFile(path) });
    expect(back.map((r) => r.positions)).toEqual(rows.map((r) => (r[1] === null ? null : [])));
  });
});

describe('compareCodePoints', () => {
  const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it('orders strings as their UTF-8 bytes do, where UTF-16 order does not', () => {
    expect(Math.sign(compareCodePoints('\u{1f600}', '\uff01'))).toBe(1);
    expect('\u{1f600}' < '\uff01').toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(utf8Order(a, b)));
      }),
    );
  });
});
