import { describe, expect, it } from 'vitest';
import { slugsIn } from './response-cache.js';
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

  it('accepts any byte budget, whole tenths or not (64 MB, say)', () => {
    const c = new SlugCache<string>(10, Infinity, Date.now, { maxBytes: 64 * 2 ** 20, bytesOf: (v) => v.length });
    c.set('a', 'A', ['contest:1'], c.mark());
    expect(c.get('a')).toBe('A');
  });

  it('keeps within a byte budget, evicting by use, and never keeps an entry heavier than a tenth of it', () => {
    // Each entry weighs its value (90) and its one indexed slug (80).
    const c = new SlugCache<string>(1_000, Infinity, Date.now, { maxBytes: 1_700, bytesOf: (v) => v.length });
    for (let i = 0; i < 50; i += 1) c.set(`k${i}`, 'x'.repeat(90), [`contest:${i}`], c.mark());
    expect(c.bytes).toBeLessThanOrEqual(1_700);
    expect(c.size).toBe(10);
    expect(c.get('k49')).toBeDefined();
    expect(c.get('k0')).toBeUndefined();
    c.set('huge', 'y'.repeat(171), [], c.mark());
    expect(c.get('huge')).toBeUndefined();
    c.invalidateSlugs(['contest:49']);
    expect(c.bytes).toBe(9 * 170);
    c.clear();
    expect(c.bytes).toBe(0);
  });
});

describe('SlugCache groups (entries showing the same slugs)', () => {
  const ballotSlugs = ['contest:1', 'candidacy:1', 'provenance:1'];

  it('drops every entry of a group when an event names one of its slugs, and no other', () => {
    const c = new SlugCache<string>(10);
    c.set('point-a', 'A', ballotSlugs, c.mark());
    c.set('point-b', 'B', ballotSlugs, c.mark());
    c.set('point-c', 'C', ['contest:2'], c.mark());
    c.set('list', 'L', ['candidacy:1'], c.mark());
    expect(c.invalidateSlugs(['provenance:1'])).toBe(2);
    expect([c.get('point-a'), c.get('point-b'), c.get('point-c'), c.get('list')]).toEqual([
      undefined,
      undefined,
      'C',
      'L',
    ]);
    expect(c.invalidateSlugs(['candidacy:1'])).toBe(1);
  });

  it("indexes a group's slugs once and forgets them when its last entry goes", () => {
    let now = 0;
    const c = new SlugCache<string>(3, 1_000, () => now);
    c.set('point-a', 'A', ballotSlugs, c.mark());
    c.set('point-b', 'B', ballotSlugs, c.mark());
    expect(c.indexedSlugs).toBe(3);
    c.set('point-c', 'C', ['contest:2'], c.mark());
    c.set('point-d', 'D', ['contest:2'], c.mark()); // evicts point-a; ballot#1 keeps point-b
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
    c.set('point-a', 'A', ballotSlugs, c.mark());
    c.invalidateSlugs(['contest:1']);
    c.set('point-a', 'A2', ballotSlugs, c.mark());
    expect(c.invalidateSlugs(['candidacy:1'])).toBe(1);
  });
});

describe('slugsIn', () => {
  it('finds every slug-shaped string in a body, nested or in arrays, and nothing else', () => {
    const body = {
      slug: 'contest:co-2026',
      name: 'region: not a slug',
      data: [{ provenance: ['provenance:fec'], person_slug: 'person:x' }],
      n: 3,
    };
    expect(slugsIn(body).sort()).toEqual(['contest:co-2026', 'person:x', 'provenance:fec']);
  });

  it('takes only the slug kinds, followed by a lowercase letter or digit', () => {
    const body = [
      'https://example.org/region:co',
      'party:democratic',
      'party:Democratic',
      'party:',
      'parties:x',
      'result:0-yes',
      'ocd-division/country:us/state:co',
      'notakind:x',
      'election:co-2026-11-03',
    ];
    expect(slugsIn(body).sort()).toEqual(['election:co-2026-11-03', 'party:democratic', 'result:0-yes']);
  });
});
