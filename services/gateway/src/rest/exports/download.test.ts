import { describe, expect, it } from 'vitest';
import { rangeOf } from './download.js';

describe('rangeOf', () => {
  it.each([
    ['bytes=0-9', [0, 9]],
    ['bytes=10-', [10, 99]],
    ['bytes=-5', [95, 99]],
    ['bytes=-500', [0, 99]],
    ['bytes=90-500', [90, 99]],
  ] as const)('reads %s of a 100-byte file as %j', (header, range) => {
    expect(rangeOf(header, 100)).toEqual(range);
  });

  it.each(['bytes=100-', 'bytes=50-10', 'bytes=-0'])('finds %s unsatisfiable in a 100-byte file', (header) => {
    expect(rangeOf(header, 100)).toBe('unsatisfiable');
  });

  it.each([undefined, 'bytes=0-1,5-9', 'items=0-9', 'bytes=-'])('serves the whole file for %s', (header) => {
    expect(rangeOf(header, 100)).toBeUndefined();
  });
});
