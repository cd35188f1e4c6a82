import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_COLUMNS, type Cell } from '../columns.js';
import { csvRowBound, encodeCsvRow } from './csv-row.js';
import { csvField, csvSink } from './sinks.js';

const line = (cells: readonly Cell[]) => cells.map(csvField).join(',') + '\r\n';

const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constant(null),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('"', ',', '\r', '\n', 'a', 'é', '€', '😀') }),
  fc.double(),
  fc.boolean(),
);

describe('encodeCsvRow', () => {
  it('writes the bytes of the fields csvField makes, joined by commas, within its bound', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1 }), (cells) => {
        const most = csvRowBound(cells);
        const out = Buffer.alloc(most + 8);
        const end = encodeCsvRow(cells, out, 8);
        expect(end - 8).toBeLessThanOrEqual(most);
        expect(out.subarray(8, end).toString('utf8')).toBe(line(cells));
      }),
    );
  });
});

describe('csvSink', () => {
  it('writes rows larger than its chunk and than its scratch buffer whole, in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'civic-csv-row-'));
    try {
      const columns = NODE_COLUMNS.slice(0, 2);
      const rows: Cell[][] = [
        ['a', '"quoted", and long '.repeat(30_000)],
        ['b', 'é'.repeat(100_000)],
        ['c', null],
      ];
      const path = join(dir, 't.csv');
      const sink = csvSink(path, columns);
      for (const cells of rows) await sink.write({ data: {} }, cells);
      await sink.close();
      expect(await readFile(path, 'utf8')).toBe('slug,kind\r\n' + rows.map(line).join(''));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
