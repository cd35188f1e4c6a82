import { describe, expect, it } from 'vitest';
import { slugsIn } from './response-cache.js';
import { RegionInterner } from './region-interner.js';
import { SlugCache } from './slug-cache.js';

describe('SlugCache', () => {
  it('drops exactly the entries naming an invalidated slug', () => {
    const c = new SlugCache<string>(10);
    c.set('a', 'A', ['contest:1', 'candidacy:1'], c.mark());
    c.set('b', 'B', ['contest:2'], c.mark());
    expect(c.invalidateSlugs(['candidacy:1'])).toBe(1);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe('B');
  });

  it('does not store an answer computed before an invalidation', () => {
    const c = new SlugCache<string>(10);
    const generation = c.mark();
    c.invalidateSlugs(['contest:1']);
    c.set('a', 'stale', ['contest:1'], generation);
    expect(c.get('a')).toBeUndefined();
  });

  it('evicts the oldest entry when full and expires entries after their time to live', () => {
    let now = 0;
    const c = new SlugCache<number>(2, 1_000, () => now);
    c.set('a', 1, [], c.mark());
    c.set('b', 2, [], c.mark());
    c.set('c', 3, [], c.mark());
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 2, 3]);
    now = 1_000;
    expect(c.get('b')).toBeUndefined();
    expect(c.size).toBe(1);
  });
});

describe('slugsIn', () => {
  it('finds every slug-shaped string in a body, nested or in arrays, and nothing else', () => {
    const body = { slug: 'contest:co-2026', name: 'region: not a slug', data: [{ provenance: ['provenance:fec'], person_slug: 'person:x' }], n: 3 };
    expect(slugsIn(body).sort()).toEqual(['contest:co-2026', 'person:x', 'provenance:fec']);
  });
});

describe('RegionInterner', () => {
  it('hands out one frozen object per distinct region, and a new one when any field differs', () => {
    const interner = new RegionInterner();
    const r = { slug: 'region:co', name: 'Colorado', level: 1, fips: '08', ocdId: '', state: 'co', roles: [1], validFrom: '', validTo: '' };
    const [a] = interner.intern([{ ...r }]);
    const [b] = interner.intern([{ ...r, roles: [1] }]);
    const [c] = interner.intern([{ ...r, roles: [1, 2] }]);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(interner.size).toBe(2);
  });
});
