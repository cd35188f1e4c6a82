import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map.js';

describe('LruMap', () => {
  it('keeps within its count, evicting the least recently used', () => {
    const m = new LruMap<string>(2, Infinity, () => 1);
    m.set('a', 'A');
    m.set('b', 'B');
    m.touch('a');
    m.set('c', 'C');
    expect([...m.entries()].map(([k]) => k)).toEqual(['a', 'c']);
  });

  it('keeps within its byte budget, however many entries that leaves', () => {
    const m = new LruMap<string>(1_000, 10, (v) => v.length);
    for (const v of ['aaaa', 'bbbb', 'cccc']) m.set(v, v);
    expect(m.bytes).toBe(8);
    expect([...m.entries()].map(([k]) => k)).toEqual(['bbbb', 'cccc']);
    m.set('bbbb', 'bb');
    expect(m.bytes).toBe(6);
    expect(m.delete('cccc')).toBe(true);
    expect(m.bytes).toBe(2);
    expect(m.size).toBe(1);
  });
});
