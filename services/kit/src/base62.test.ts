import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BASE62_ALPHABET, notBase62, randomBase62 } from './base62.js';

/** Pearson's chi-square of `counts` against a uniform expectation. */
function chiSquare(counts: readonly number[], total: number): number {
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

function symbolCounts(text: string): number[] {
  const counts = new Array<number>(62).fill(0);
  for (const ch of text) counts[BASE62_ALPHABET.indexOf(ch)]! += 1;
  return counts;
}

// With 61 degrees of freedom, chi-square exceeds 130 with probability below 1e-6.
const CRITICAL = 130;

describe('randomBase62', () => {
  it('returns exactly the requested number of base62 characters', () => {
    for (const n of [0, 1, 16, 40, 1000]) expect(randomBase62(n)).toMatch(new RegExp(`^[0-9A-Za-z]{${n}}$`));
  });

  it('skips bytes at or above 248 instead of folding them onto the first symbols', () => {
    const bytes = [255, 248, 247, 0, 61, 62];
    const source = (size: number) => Uint8Array.from(bytes.splice(0, size));
    expect(randomBase62(4, source)).toBe('z0z0');
  });

  it('draws more bytes when a batch is mostly rejected', () => {
    let calls = 0;
    const source = (size: number) => (++calls === 1 ? new Uint8Array(size).fill(250) : new Uint8Array(size).fill(1));
    expect(randomBase62(3, source)).toBe('111');
    expect(calls).toBe(2);
  });

  it('spreads symbols uniformly, where a plain byte % 62 is measurably biased', () => {
    const n = 62 * 2000;
    const bytes = randomBytes(n);
    const naive = Array.from(bytes, (b) => BASE62_ALPHABET[b % 62]).join('');
    expect(chiSquare(symbolCounts(naive), n)).toBeGreaterThan(CRITICAL);
    expect(chiSquare(symbolCounts(randomBase62(n)), n)).toBeLessThan(CRITICAL);
  });
});

describe('notBase62', () => {
  it('agrees with a regular expression on every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const expected = /[0-9A-Za-z]/.test(String.fromCharCode(code)) ? 0 : 1;
      if (notBase62(code) !== expected) expect.fail(`code ${code}`);
    }
  });
});
