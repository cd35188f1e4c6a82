import { describe, expect, it } from 'vitest';
import { cell, NODE_COLUMNS, TableColumns } from './columns.js';
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
