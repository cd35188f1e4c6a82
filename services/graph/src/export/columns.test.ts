import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cell,
  cellsOf,
  EDGE_COLUMNS,
  jsonCells,
  NdjsonLines,
  NODE_COLUMNS,
  TableColumns,
  type Cell,
  type TableRow,
} from './columns.js';

const ndjsonLine = (row: TableRow, cells: readonly Cell[], lines: NdjsonLines) => lines.pieces(row, cells).join('');
import { csvField } from './formats/sinks.js';

describe('TableColumns', () => {
  it('adds the data keys after the fixed columns, sorted, typed by the values seen, prefixing a clash', () => {
    const t = new TableColumns(NODE_COLUMNS);
    t.observe({ name: 'A', population: 5, tags: ['x'], slug: 'clash', flag: true });
    t.observe({ name: 'B', population: null, mixed: 1 });
    t.observe({ mixed: 'one' });
    const cols = t.columns();
    expect(cols.map((c) => `${c.name}:${c.type}`)).toEqual([
      'slug:string',
      'kind:string',
      'state:string',
      'tier:string',
      'rev:int',
      'updated_at:string',
      'flag:boolean',
      'mixed:json',
      'name:string',
      'population:double',
      'data_slug:string',
      'tags:json',
    ]);
    const row = {
      slug: 'region:co',
      kind: 'region',
      state: 'co',
      tier: '',
      rev: 2,
      updatedAt: 't',
      data: { slug: 'clash', tags: ['x'] },
    };
    expect(cols.map((c) => cell(c.get(row), c.type))).toEqual([
      'region:co',
      'region',
      'co',
      '',
      2,
      't',
      null,
      null,
      null,
      null,
      'clash',
      '["x"]',
    ]);
  });
});

describe('TableColumns.fits', () => {
  it('fits a row that would leave the columns as they are, not one with a new key or a type its column changes on', () => {
    const t = new TableColumns(NODE_COLUMNS);
    t.observe({ name: 'A', population: 5, tags: ['x'], nothing: null });
    expect(t.fits({ name: 'B', population: null })).toBe(true);
    // A JSON column stays one; a column that held only nulls is text, as a string keeps it.
    expect(t.fits({ tags: { a: 1 }, nothing: 'now' })).toBe(true);
    expect(t.fits({ name: 'C', founded: 1854 })).toBe(false);
    expect(t.fits({ population: 'many' })).toBe(false);
    expect(t.fits({ nothing: 3 })).toBe(false);
  });

  it('agrees with the columns learned from every row', () => {
    const value = fc.oneof(fc.constant(null), fc.string(), fc.double(), fc.boolean(), fc.array(fc.integer()));
    const row = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value);
    fc.assert(
      fc.property(fc.array(row, { minLength: 1 }), row, (seen, next) => {
        const t = new TableColumns(NODE_COLUMNS);
        for (const r of seen) t.observe(r);
        const before = t.columns().map((c) => `${c.name}:${c.type}`);
        const fits = t.fits(next);
        t.observe(next);
        expect(fits).toBe(
          t
            .columns()
            .map((c) => `${c.name}:${c.type}`)
            .join() === before.join(),
        );
      }),
    );
  });
});

describe('csvField', () => {
  it('quotes fields holding a comma, quote or line break, doubling quotes; null is empty', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(3.5)).toBe('3.5');
  });
});

describe('NdjsonLines', () => {
  // The NDJSON line is assembled from the cells CSV and Parquet share; it must stay exactly
  // the row's JSON, whatever the row holds and whichever of its values are JSON columns.
  const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;
  const data = fc.dictionary(
    fc.oneof(fc.constantFrom('fields', 'name', 'slug', 'tags', 'mixed', '__proto__x'), fc.string()),
    fc.oneof(json, fc.constant(undefined)),
  );
  const row = fc.record({
    slug: fc.string(),
    kind: fc.string(),
    state: fc.string(),
    tier: fc.string(),
    rev: fc.integer(),
    updatedAt: fc.string(),
    data,
  });

  it('is JSON.stringify of the row, with JSON columns written from their cells', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
        const t = new TableColumns(NODE_COLUMNS);
        for (const r of rows) t.observe(r.data);
        const columns = t.columns();
        const lines = new NdjsonLines(jsonCells(columns));
        for (const r of rows) expect(ndjsonLine(r, cellsOf(r, columns), lines)).toBe(JSON.stringify(r) + '\n');
      }),
    );
  });

  it('is JSON.stringify of an edge row, whose data is often empty', () => {
    const edge = { kind: 'FOR_CONTEST', from: 'candidacy:a', to: 'contest:b', key: '', data: {} };
    const columns = new TableColumns(EDGE_COLUMNS).columns();
    expect(ndjsonLine(edge, cellsOf(edge, columns), new NdjsonLines(jsonCells(columns)))).toBe(
      JSON.stringify(edge) + '\n',
    );
  });
});
