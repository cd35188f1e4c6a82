import { describe, expect, it } from 'vitest';
import { slugsIn } from './response-cache.js';
import { GeoCache } from './geo-cache.js';
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

  it('evicts the least recently used entry, not the oldest stored', () => {
    const c = new SlugCache<number>(2);
    c.set('a', 1, [], c.mark());
    c.set('b', 2, [], c.mark());
    expect(c.get('a')).toBe(1);
    c.set('c', 3, [], c.mark());
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([1, undefined, 3]);
  });

  it('keeps within a byte budget, evicting by use, and never keeps an entry heavier than a tenth of it', () => {
    const c = new SlugCache<string>(1_000, Infinity, Date.now, { maxBytes: 1_000, bytesOf: (v) => v.length });
    for (let i = 0; i < 50; i += 1) c.set(`k${i}`, 'x'.repeat(90), [`contest:${i}`], c.mark());
    expect(c.bytes).toBeLessThanOrEqual(1_000);
    expect(c.size).toBe(11);
    expect(c.get('k49')).toBeDefined();
    expect(c.get('k0')).toBeUndefined();
    c.set('huge', 'y'.repeat(101), [], c.mark());
    expect(c.get('huge')).toBeUndefined();
    c.invalidateSlugs(['contest:49']);
    expect(c.bytes).toBe(900);
    c.clear();
    expect(c.bytes).toBe(0);
  });
});

describe('SlugCache groups', () => {
  const ballotSlugs = ['contest:1', 'candidacy:1', 'provenance:1'];

  it('drops every entry of a group when an event names one of its slugs, and no other', () => {
    const c = new SlugCache<string>(10);
    c.set('point-a', 'A', ballotSlugs, c.mark(), 'ballot#1');
    c.set('point-b', 'B', ballotSlugs, c.mark(), 'ballot#1');
    c.set('point-c', 'C', ['contest:2'], c.mark(), 'ballot#2');
    c.set('list', 'L', ['candidacy:1'], c.mark());
    expect(c.invalidateSlugs(['provenance:1'])).toBe(2);
    expect([c.get('point-a'), c.get('point-b'), c.get('point-c'), c.get('list')]).toEqual([undefined, undefined, 'C', 'L']);
    expect(c.invalidateSlugs(['candidacy:1'])).toBe(1);
  });

  it('indexes a group\'s slugs once and forgets them when its last entry goes', () => {
    let now = 0;
    const c = new SlugCache<string>(3, 1_000, () => now);
    c.set('point-a', 'A', ballotSlugs, c.mark(), 'ballot#1');
    c.set('point-b', 'B', ballotSlugs, c.mark(), 'ballot#1');
    expect(c.indexedSlugs).toBe(3);
    c.set('point-c', 'C', ['contest:2'], c.mark(), 'ballot#2');
    c.set('point-d', 'D', ['contest:2'], c.mark(), 'ballot#2'); // evicts point-a; ballot#1 keeps point-b
    expect(c.get('point-a')).toBeUndefined();
    expect(c.indexedSlugs).toBe(4);
    expect(c.invalidateSlugs(['contest:1'])).toBe(1); // point-b, still indexed through its group
    expect(c.indexedSlugs).toBe(1);
    now = 1_000;
    expect([c.get('point-c'), c.get('point-d')]).toEqual([undefined, undefined]);
    expect(c.indexedSlugs).toBe(0);
    expect(c.size).toBe(0);
  });

  it('re-indexes a group stored again after it was dropped', () => {
    const c = new SlugCache<string>(10);
    c.set('point-a', 'A', ballotSlugs, c.mark(), 'ballot#1');
    c.invalidateSlugs(['contest:1']);
    c.set('point-a', 'A2', ballotSlugs, c.mark(), 'ballot#1');
    expect(c.invalidateSlugs(['candidacy:1'])).toBe(1);
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
    const r = { slug: 'region:co', name: 'Colorado', level: 1, fips: '08', ocdId: '', state: 'co', roles: [1], validFrom: '', validTo: '', source: '', precision: 'full', scaleDenominator: 0 };
    const [a] = interner.intern([{ ...r }]);
    const [b] = interner.intern([{ ...r, roles: [1] }]);
    const [c] = interner.intern([{ ...r, roles: [1, 2] }]);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(interner.size).toBe(2);
  });

  it('never hands out a stale region: a renamed region, or one with a population now, is a new object', () => {
    const interner = new RegionInterner();
    const r = { slug: 'region:co', name: 'Colorado', level: 1, fips: '08', ocdId: '', state: 'co', roles: [1], validFrom: '', validTo: '', source: '', precision: 'full', scaleDenominator: 0 };
    const [a] = interner.intern([{ ...r }]);
    const [renamed] = interner.intern([{ ...r, name: 'State of Colorado' }]);
    const [counted] = interner.intern([{ ...r, name: 'State of Colorado', population: '5877610' }]);
    expect(renamed).not.toBe(a);
    expect(renamed!.name).toBe('State of Colorado');
    expect(counted).not.toBe(renamed);
    expect(counted!.population).toBe('5877610');
    expect(interner.intern([{ ...r, name: 'State of Colorado', population: '5877610' }])[0]).toBe(counted);
  });
});

describe('GeoCache', () => {
  const region = (slug: string) => ({ slug, name: slug, level: 1, fips: '', ocdId: '', state: 'co', roles: [1], validFrom: '', validTo: '', source: '', precision: 'full', scaleDenominator: 0 });
  const principal = { keyId: 'k', environment: 1, plan: 1, pinnedVersion: '', rateLimitPerMinute: 60, entitlements: { contact: false, geography: true, states: [], tiers: [] } };

  it('drops every point answered with a region when that region changes, and keeps the others', () => {
    const cache = new GeoCache();
    const denver = [region('region:co'), region('region:co-denver-county')];
    const key = (lat: number) => GeoCache.key(principal, lat, -105, '2026-11-25');
    cache.set(key(39.71), denver, cache.mark());
    cache.set(key(39.72), denver, cache.mark());
    cache.set(key(40.5), [region('region:co'), region('region:co-weld-county')], cache.mark());
    expect(cache.invalidateSlugs(['region:co-denver-county'])).toBe(2);
    expect([cache.get(key(39.71)), cache.get(key(39.72))]).toEqual([undefined, undefined]);
    expect(cache.get(key(40.5))?.regions.map((r) => r.slug)).toEqual(['region:co', 'region:co-weld-county']);
    expect(cache.invalidateSlugs(['region:co'])).toBe(1);
    expect(cache.size).toBe(0);
  });

  it('counts renderings memoised on an entry against its byte budget, evicting the least recently used', () => {
    const cache = new GeoCache(1_000, 100_000);
    const key = (lat: number) => GeoCache.key(principal, lat, -105, '2026-11-25');
    for (let i = 0; i < 20; i++) {
      const entry = cache.set(key(39 + i / 100), [region('region:co')], cache.mark());
      cache.render(entry, 'rest:2026-11-01', { body: Buffer.alloc(9_000), etag: '"e"' });
      expect(cache.bytes).toBeLessThanOrEqual(100_000);
    }
    // About ten renderings fit: the oldest points went first, the newest are kept.
    expect(cache.size).toBeLessThan(12);
    expect(cache.get(key(39.19))?.rendered.get('rest:2026-11-01')?.body.length).toBe(9_000);
    expect(cache.get(key(39))).toBeUndefined();
    // A rendering heavier than a tenth of the budget is not kept at all.
    const big = cache.set(key(41), [region('region:co')], cache.mark());
    cache.render(big, 'rest:2026-11-01', { body: Buffer.alloc(20_000), etag: '"e"' });
    expect(cache.get(key(41))).toBeUndefined();
  });
});
