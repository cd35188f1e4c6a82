import { describe, expect, it } from 'vitest';
import { headeredRows, parseDelimited } from './csv.js';
import { ImportFileError } from './errors.js';

const rows = (text: string, options = {}) => [...parseDelimited(text, '/data/x.csv', options)];

describe('parseDelimited', () => {
  it('reads quoted fields holding delimiters, doubled quotes and line breaks, and numbers rows by their first line', () => {
    const text = 'id,name\r\n1,"Barnstable, Dukes & Nantucket"\n2,"say ""hi""\nthere"\n\n3,plain\n';
    expect(rows(text)).toEqual([
      { line: 1, fields: ['id', 'name'], terminated: true },
      { line: 2, fields: ['1', 'Barnstable, Dukes & Nantucket'], terminated: true },
      { line: 3, fields: ['2', 'say "hi"\nthere'], terminated: true },
      { line: 6, fields: ['3', 'plain'], terminated: true },
    ]);
  });

  it('marks a last row the file ends inside', () => {
    expect(rows('a|b|c\nd|e', { delimiter: '|', quotes: false }).at(-1)).toEqual({
      line: 2,
      fields: ['d', 'e'],
      terminated: false,
    });
  });

  it('keeps bare quotes as text when quoting is off (FEC names such as TROUT, W. MICHAEL "MIKE")', () => {
    expect(rows('H1|TROUT, W. MICHAEL "MIKE"|C\n', { delimiter: '|', quotes: false })[0]!.fields).toEqual([
      'H1',
      'TROUT, W. MICHAEL "MIKE"',
      'C',
    ]);
  });

  it('fails with the starting line when the file ends inside a quoted field', () => {
    expect(() => rows('id,name\n1,ok\n2,"cut off\n')).toThrow(ImportFileError);
    expect(() => rows('id,name\n1,ok\n2,"cut off\n')).toThrow(/x\.csv line 3: the file ends inside a quoted field/);
  });
});

describe('headeredRows', () => {
  it('maps fields by column and flags rows with the wrong number of fields', () => {
    const out = [...headeredRows('id,name,geoid\na,A,1\nb,B\n', '/data/x.csv', ['id', 'name'])];
    expect(out[0]).toEqual({ line: 2, values: { id: 'a', name: 'A', geoid: '1' } });
    expect(out[1]).toMatchObject({ line: 3, values: { id: 'b', name: 'B', geoid: '' }, shape: '2 fields, expected 3' });
  });

  it('refuses a header without a required column, naming it', () => {
    expect(() => [...headeredRows('id,label\na,A\n', '/data/x.csv', ['id', 'name'])]).toThrow(
      /x\.csv line 1: the header lacks column name \(it has id, label\)/,
    );
  });
});
