import { describe, expect, it } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { SortedKeys } from './sorted-keys.js';

const sorted = (s: Set<string>): string[] => [...s].sort();

describe('SortedKeys', () => {
  it('agrees with a sorted Set through thousands of random adds and deletes across many blocks', () => {
    const rnd = seededRandom(7);
    const keys = new SortedKeys();
    const ref = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const k = `k${Math.floor(rnd() * 5000)}`;
      if (rnd() < 0.6) {
        expect(keys.add(k)).toBe(!ref.has(k));
        ref.add(k);
      } else {
        expect(keys.delete(k)).toBe(ref.delete(k));
      }
    }
    expect(keys.size).toBe(ref.size);
    expect([...keys.from()]).toEqual(sorted(ref));
    expect(keys.has('k1')).toBe(ref.has('k1'));
  });

  it('iterates strictly after a key, whether or not the key is present', () => {
    const keys = new SortedKeys();
    for (let i = 0; i < 1000; i++) keys.add(`k${String(i).padStart(4, '0')}`);
    expect([...keys.from('k0997')]).toEqual(['k0998', 'k0999']);
    expect([...keys.from('k0997x')]).toEqual(['k0998', 'k0999']);
    expect([...keys.from('k0999')]).toEqual([]);
    expect([...keys.from('a')]).toHaveLength(1000);
    expect([...new SortedKeys().from('k')]).toEqual([]);
  });

  it('estimates a range as at least its true size and at most the whole set', () => {
    const keys = new SortedKeys();
    for (let i = 0; i < 5000; i++) keys.add(`d${String(i).padStart(5, '0')}`);
    const n = keys.estimateRange('d01000', 'd01999');
    expect(n).toBeGreaterThanOrEqual(1000);
    expect(n).toBeLessThan(2000);
    expect(keys.estimateRange('x', 'z')).toBe(0);
  });
});
