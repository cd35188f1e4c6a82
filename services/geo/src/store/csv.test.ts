import { expect, test } from 'vitest';
import { parseCsv } from './csv.js';

test('parseCsv keys rows by header and honours quotes, doubled quotes and CRLF', () => {
  const text = '\uFEFFGEOID,CTYNAME,POP\r\n08031,Denver County,716577\r\n"99001","Name, with ""comma""",1\r\n\r\n';
  expect(parseCsv(text)).toEqual([
    { GEOID: '08031', CTYNAME: 'Denver County', POP: '716577' },
    { GEOID: '99001', CTYNAME: 'Name, with "comma"', POP: '1' },
  ]);
});

test('a short row leaves the missing columns empty', () => {
  expect(parseCsv('a,b,c\n1,2')).toEqual([{ a: '1', b: '2', c: '' }]);
});
