import { beforeEach, describe, expect, it } from 'vitest';
import { sortKey } from '../model/index-keys.js';
import type { Tier } from '../model/kinds.js';
import type { NodeDoc } from '../model/nodes.js';
import { candidacy, changes, contest, creates, election, pad, region } from './conformance-fixtures.js';
import type { GraphStore, NodeQuery } from './graph-store.js';

/**
 * NodeQuery conformance. Expected answers come from a plain filter-and-sort over the
 * fixtures, written independently of any adapter's planner.
 */

const STATES = ['co', 'wy', 'ut'];
const TIERS: (Tier | '')[] = ['', 'federal', 'state', 'county'];
const DATES = ['2024-11-05', '2025-11-04', '2026-06-30', '2026-11-03', '2027-11-02', '2028-11-07'];
const PARTIES = ['party:dem', 'party:rep', null];

function contests(): NodeDoc<'contest'>[] {
  return Array.from({ length: 60 }, (_, i) =>
    contest(`c${pad(59 - i)}`, {
      state: STATES[i % 3],
      tier: TIERS[i % 4],
      region: `region:r${i % 5}`,
      office: `office:o${i % 2}`,
      date: DATES[i % 6],
    }),
  );
}

function candidacies(cs: NodeDoc<'contest'>[]): NodeDoc<'candidacy'>[] {
  return Array.from({ length: 40 }, (_, i) =>
    candidacy(`k${pad(i)}`, {
      contest: cs[i % 8]?.slug,
      party: PARTIES[i % 3],
      confidence: (i % 10) / 10,
      state: STATES[i % 3],
      tier: TIERS[(i + 1) % 4],
    }),
  );
}

const bySlug = (a: NodeDoc, b: NodeDoc): number => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
const byDate = (a: NodeDoc, b: NodeDoc): number =>
  sortKey(a, 'date') < sortKey(b, 'date') ? -1 : sortKey(a, 'date') > sortKey(b, 'date') ? 1 : 0;
const slugs = (nodes: readonly NodeDoc[]): string[] => nodes.map((n) => n.slug);

/** Every page of a query, following `next`; checks each page's size on the way. */
async function allPages(store: GraphStore, q: NodeQuery): Promise<{ slugs: string[]; pages: number }> {
  const out: string[] = [];
  let after: string | undefined;
  for (let pages = 1; pages < 1000; pages++) {
    const page = await store.query({ ...q, ...(after === undefined ? {} : { after }) });
    expect(page.nodes.length).toBeLessThanOrEqual(q.limit);
    out.push(...slugs(page.nodes));
    if (page.next === undefined) return { slugs: out, pages };
    const last = page.nodes[page.nodes.length - 1];
    expect(last).toBeDefined();
    expect(page.next).toBe(sortKey(last as NodeDoc, q.order ?? 'slug'));
    after = page.next;
  }
  throw new Error('paging did not end');
}

export function describeQueryConformance(store: () => GraphStore): void {
  describe('query', () => {
    const cs = contests();
    const ks = candidacies(cs);
    beforeEach(async () => {
      await store().commit(
        creates([
          ...cs,
          ...ks,
          region('co'),
          region('co-cd-1', { level: 'congressional-district' }),
          election('co-2026', '2026-11-03'),
        ]),
      );
    });
    const expectContests = (pick: (c: NodeDoc<'contest'>) => boolean, order: 'slug' | 'date' = 'slug') =>
      slugs(cs.filter(pick).sort(order === 'slug' ? bySlug : byDate));

    it('returns only nodes of the asked kind, by slug', async () => {
      const page = await store().query({ kind: 'region', limit: 10 });
      expect(slugs(page.nodes)).toEqual(['region:co', 'region:co-cd-1']);
      expect(page.next).toBeUndefined();
      expect(slugs((await store().query({ kind: 'contest', limit: 1000 })).nodes)).toEqual(expectContests(() => true));
      expect((await store().query({ kind: 'person', limit: 10 })).nodes).toEqual([]);
    });

    it('keeps to the states of the scope', async () => {
      const page = await store().query({ kind: 'contest', states: ['wy', 'ut'], limit: 1000 });
      expect(slugs(page.nodes)).toEqual(expectContests((c) => c.state === 'wy' || c.state === 'ut'));
      expect((await store().query({ kind: 'contest', states: [], limit: 1000 })).nodes).toHaveLength(60);
    });

    it('keeps to the tiers of the scope, always letting tier-less nodes through', async () => {
      const page = await store().query({ kind: 'contest', tiers: ['state'], limit: 1000 });
      expect(slugs(page.nodes)).toEqual(expectContests((c) => c.tier === 'state' || c.tier === ''));
      expect(page.nodes.some((n) => n.tier === '')).toBe(true);
      const regions = await store().query({ kind: 'region', tiers: ['federal'], limit: 10 });
      expect(regions.nodes).toHaveLength(2);
    });

    it('matches one or several values of a field, and every field named', async () => {
      const one = await store().query({ kind: 'contest', match: { region: ['region:r2'] }, limit: 1000 });
      expect(slugs(one.nodes)).toEqual(expectContests((c) => c.data.region === 'region:r2'));
      const several = await store().query({
        kind: 'contest',
        match: { region: ['region:r2', 'region:r4', 'region:r2'] },
        limit: 1000,
      });
      expect(slugs(several.nodes)).toEqual(expectContests((c) => ['region:r2', 'region:r4'].includes(c.data.region)));
      const both = await store().query({
        kind: 'contest',
        match: { region: ['region:r2', 'region:r4'], office: ['office:o1'] },
        limit: 1000,
      });
      expect(slugs(both.nodes)).toEqual(
        expectContests((c) => ['region:r2', 'region:r4'].includes(c.data.region) && c.data.office === 'office:o1'),
      );
      expect(both.nodes.length).toBeGreaterThan(0);
    });

    it('matches nothing for an empty value list, an unknown value, or a field the kind is not indexed under', async () => {
      expect((await store().query({ kind: 'contest', match: { region: [] }, limit: 10 })).nodes).toEqual([]);
      expect(
        (await store().query({ kind: 'contest', match: { region: ['region:nowhere'] }, limit: 10 })).nodes,
      ).toEqual([]);
      expect((await store().query({ kind: 'contest', match: { party: ['party:dem'] }, limit: 10 })).nodes).toEqual([]);
    });

    it('matches candidacies by contest and party, leaving out those with no party', async () => {
      const page = await store().query({
        kind: 'candidacy',
        match: { party: ['party:dem', 'party:rep'], contest: [cs[1]?.slug ?? ''] },
        limit: 1000,
      });
      const want = ks
        .filter((k) => k.data.fields.contest.value === cs[1]?.slug && k.data.fields.party?.value !== null)
        .sort(bySlug);
      expect(slugs(page.nodes)).toEqual(slugs(want));
      expect(want.length).toBeGreaterThan(0);
    });

    it('bounds dates inclusively at both ends, and on either end alone', async () => {
      const range = await store().query({ kind: 'contest', dateFrom: '2025-11-04', dateTo: '2026-11-03', limit: 1000 });
      expect(slugs(range.nodes)).toEqual(
        expectContests((c) => c.data.date >= '2025-11-04' && c.data.date <= '2026-11-03'),
      );
      const day = await store().query({ kind: 'contest', dateFrom: '2026-11-03', dateTo: '2026-11-03', limit: 1000 });
      expect(slugs(day.nodes)).toEqual(expectContests((c) => c.data.date === '2026-11-03'));
      const from = await store().query({ kind: 'contest', dateFrom: '2027-11-02', limit: 1000 });
      expect(slugs(from.nodes)).toEqual(expectContests((c) => c.data.date >= '2027-11-02'));
      const to = await store().query({ kind: 'contest', dateTo: '2024-11-05', limit: 1000 });
      expect(slugs(to.nodes)).toEqual(expectContests((c) => c.data.date <= '2024-11-05'));
      const elections = await store().query({ kind: 'election', dateFrom: '2026-01-01', limit: 10 });
      expect(slugs(elections.nodes)).toEqual(['election:co-2026']);
    });

    it('orders by date then slug when asked', async () => {
      const page = await store().query({ kind: 'contest', order: 'date', limit: 1000 });
      expect(slugs(page.nodes)).toEqual(expectContests(() => true, 'date'));
      expect(slugs(page.nodes)).not.toEqual(expectContests(() => true));
    });

    it('keeps candidacies at or above a minimum confidence', async () => {
      const page = await store().query({ kind: 'candidacy', minConfidence: 0.7, limit: 1000 });
      expect(slugs(page.nodes)).toEqual(slugs(ks.filter((k) => k.data.confidence >= 0.7).sort(bySlug)));
      expect(page.nodes.some((n) => (n as NodeDoc<'candidacy'>).data.confidence === 0.7)).toBe(true);
      expect((await store().query({ kind: 'candidacy', minConfidence: 0, limit: 1000 })).nodes).toHaveLength(40);
    });

    it('answers the ballot shape: contests of some regions on a day, then their confident candidacies', async () => {
      const regions = ['region:r1', 'region:r3', 'region:elsewhere'];
      const day = await store().query({
        kind: 'contest',
        match: { region: regions },
        dateFrom: '2026-11-03',
        dateTo: '2026-11-03',
        states: ['co', 'wy', 'ut'],
        limit: 100,
      });
      expect(slugs(day.nodes)).toEqual(
        expectContests((c) => regions.includes(c.data.region) && c.data.date === '2026-11-03'),
      );
      expect(day.nodes.length).toBeGreaterThan(0);
      const contestSlugs = slugs(cs.slice(0, 8));
      const cands = await store().query({
        kind: 'candidacy',
        match: { contest: contestSlugs },
        minConfidence: 0.5,
        tiers: ['federal'],
        limit: 100,
      });
      const want = ks.filter(
        (k) =>
          contestSlugs.includes(k.data.fields.contest.value) &&
          k.data.confidence >= 0.5 &&
          (k.tier === '' || k.tier === 'federal'),
      );
      expect(slugs(cands.nodes)).toEqual(slugs(want.sort(bySlug)));
    });

    for (const order of ['slug', 'date'] as const) {
      it(`pages by keyset in ${order} order with no duplicates and no gaps`, async () => {
        const full = await allPages(store(), { kind: 'contest', order, limit: 7 });
        expect(full.slugs).toEqual(expectContests(() => true, order));
        expect(full.pages).toBe(Math.ceil(60 / 7));
        const q: NodeQuery = {
          kind: 'contest',
          order,
          states: ['co', 'ut'],
          match: { office: ['office:o0'] },
          dateFrom: '2025-01-01',
          limit: 3,
        };
        const filtered = await allPages(store(), q);
        expect(filtered.slugs).toEqual(
          expectContests(
            (c) => c.state !== 'wy' && c.data.office === 'office:o0' && c.data.date >= '2025-01-01',
            order,
          ),
        );
        expect(filtered.pages).toBeGreaterThan(2);
        const regions = ['region:r1', 'region:r2', 'region:r3'];
        const union = await allPages(store(), { kind: 'contest', order, match: { region: regions }, limit: 4 });
        expect(union.slugs).toEqual(expectContests((c) => regions.includes(c.data.region), order));
        expect(union.pages).toBe(9);
      });
    }

    it('ends with no next when the last page is exactly full', async () => {
      const q: NodeQuery = { kind: 'contest', match: { region: ['region:r0'] }, limit: 6 };
      const first = await store().query(q);
      expect(first.nodes).toHaveLength(6);
      expect(cs.filter((c) => c.data.region === 'region:r0')).toHaveLength(12);
      const second = await store().query({ ...q, after: first.next });
      expect(second.nodes).toHaveLength(6);
      expect(second.next).toBeUndefined();
    });

    it('follows changes: a moved, an added and a removed node are found where they now belong', async () => {
      const moved = cs.find((c) => c.data.region === 'region:r0') as NodeDoc<'contest'>;
      const gone = cs.find((c) => c.data.region === 'region:r1') as NodeDoc<'contest'>;
      await store().commit(
        changes({
          put: [
            { node: { ...moved, data: { ...moved.data, region: 'region:r9', date: '2030-01-01' } }, expectRev: 1 },
            { node: contest('new', { region: 'region:r9', date: '2030-01-01' }), expectRev: 0 },
          ],
          remove: [{ slug: gone.slug, expectRev: 1 }],
        }),
      );
      const r0 = await store().query({ kind: 'contest', match: { region: ['region:r0'] }, limit: 100 });
      expect(slugs(r0.nodes)).not.toContain(moved.slug);
      const r9 = await store().query({
        kind: 'contest',
        match: { region: ['region:r9'] },
        dateFrom: '2030-01-01',
        order: 'date',
        limit: 100,
      });
      expect(slugs(r9.nodes)).toEqual([moved.slug, 'contest:new'].sort());
      const r1 = await store().query({ kind: 'contest', match: { region: ['region:r1'] }, limit: 100 });
      expect(slugs(r1.nodes)).not.toContain(gone.slug);
      expect(r1.nodes).toHaveLength(11);
    });

    it('refuses a limit outside 1..1000, naming the field', async () => {
      for (const limit of [0, 1001, 2.5]) {
        await expect(store().query({ kind: 'contest', limit })).rejects.toMatchObject({
          name: 'InvalidParameterError',
          field: 'limit',
        });
      }
      expect((await store().query({ kind: 'contest', limit: 1000 })).nodes).toHaveLength(60);
    });
  });
}
