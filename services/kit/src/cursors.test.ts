import { describe, expect, it } from 'vitest';
import { Cursors } from './cursors.js';
import { InvalidParameterError } from './errors.js';

const cursors = new Cursors(Buffer.from('a test secret'));
const query = { list: 'webhook_endpoints', key: 'key_1' };

function refusal(f: () => unknown): InvalidParameterError {
  try {
    f();
  } catch (err) {
    if (err instanceof InvalidParameterError) return err;
    throw err;
  }
  throw new Error('expected the cursor to be refused');
}

describe('Cursors', () => {
  it('gives back the position it encoded, for the same query in any key order', () => {
    const cursor = cursors.encode('2026-11-27T08:00:00.000Z|we_1', query);
    expect(cursors.decode(cursor, { key: 'key_1', list: 'webhook_endpoints' })).toBe('2026-11-27T08:00:00.000Z|we_1');
    expect(cursors.decode('', query)).toBeUndefined();
  });

  it.each([
    ['another query', (c: string) => cursors.decode(c, { ...query, key: 'key_2' })],
    ['another secret', (c: string) => new Cursors(Buffer.from('another secret')).decode(c, query)],
    ['an edited body', (c: string) => cursors.decode(`x${c}`, query)],
    ['an edited signature', (c: string) => cursors.decode(`${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`, query)],
    ['no signature', (c: string) => cursors.decode(c.split('.')[0]!, query)],
    ['a third part', (c: string) => cursors.decode(`${c}.x`, query)],
  ])('refuses a cursor with %s as an invalid `cursor`', (_, decode) => {
    const err = refusal(() => decode(cursors.encode('we_1', query)));
    expect(err.field).toBe('cursor');
    expect(err.message).toMatch(/next_cursor/);
  });

  it('refuses a signed body that is not a position', () => {
    const sign = (body: string) => `${body}.${(cursors as unknown as { sign(b: string): string }).sign(body)}`;
    expect(refusal(() => cursors.decode(sign('not-json'), query)).field).toBe('cursor');
    const noPosition = Buffer.from(JSON.stringify({ q: 'x' })).toString('base64url');
    expect(refusal(() => cursors.decode(sign(noPosition), query)).field).toBe('cursor');
  });
});
