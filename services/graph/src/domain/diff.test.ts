import { describe, expect, test } from 'vitest';
import { changedKeys, deepEqual } from './diff.js';

describe('deepEqual', () => {
  test('ignores object key order', () => {
    expect(deepEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
  });

  test('sees a changed nested value, a reordered array and an extra key', () => {
    expect(deepEqual({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
  });

  test('treats an undefined key as a missing one, as JSON storage does', () => {
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });

  test('tells an array from an object and null from an object', () => {
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});

describe('changedKeys', () => {
  test('names the keys added, removed or changed, sorted', () => {
    expect(
      changedKeys({ name: 'A', ids: { fec: ['1'] }, gone: 1 }, { name: 'B', ids: { fec: ['1'] }, added: 2 }),
    ).toEqual(['added', 'gone', 'name']);
  });

  test('is empty when nothing changed', () => {
    expect(changedKeys({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
});
