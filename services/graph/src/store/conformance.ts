import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { candidacy, changes, contest, creates, edge, event, region, sortEdges } from './conformance-fixtures.js';
import { describeQueryConformance } from './conformance-query.js';
import { RevConflictError, type GraphStore } from './graph-store.js';

/**
 * The GraphStore contract, run against every adapter (memory, LMDB, ArangoDB). Each test
 * opens a fresh, empty store and closes it afterwards. Edge lists are compared sorted:
 * the port does not fix their order.
 */
export function describeGraphStoreConformance(name: string, open: () => Promise<GraphStore>): void {
  describe(`GraphStore conformance: ${name}`, () => {
    let store: GraphStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });
    const s = (): GraphStore => store;

    describeWrites(s);
    describeEdges(s);
    describeQueryConformance(s);
    describeOutbox(s);
  });
}

function describeWrites(store: () => GraphStore): void {
  describe('writes', () => {
    it('creates a node at rev 1 whatever rev it carried, and reads it back', async () => {
      const node = { ...region('co'), rev: 42 };
      await store().commit(creates([node]));
      expect(await store().getNode('region:co')).toEqual({ ...node, rev: 1 });
      expect(await store().getNode('region:wy')).toBeUndefined();
    });

    it('replaces a node given its current rev, moving it to the next rev', async () => {
      await store().commit(creates([region('co')]));
      const renamed = region('co', { name: 'Colorado' });
      await store().commit(changes({ put: [{ node: renamed, expectRev: 1 }] }));
      expect(await store().getNode('region:co')).toEqual({ ...renamed, rev: 2 });
    });

    it('refuses a stale rev with RevConflictError naming the slug and both revs, keeping the node', async () => {
      await store().commit(creates([region('co')]));
      await store().commit(changes({ put: [{ node: region('co', { name: 'second' }), expectRev: 1 }] }));
      const err = await store()
        .commit(changes({ put: [{ node: region('co', { name: 'stale' }), expectRev: 1 }] }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RevConflictError);
      expect(err).toMatchObject({ slug: 'region:co', expected: 1, actual: 2 });
      expect((await store().getNode<'region'>('region:co'))?.data.name).toBe('second');
    });

    it('refuses to create a node that already exists', async () => {
      await store().commit(creates([region('co')]));
      await expect(store().commit(creates([region('co', { name: 'again' })]))).rejects.toMatchObject({
        name: 'RevConflictError',
        slug: 'region:co',
        expected: 0,
        actual: 1,
      });
    });

    it('refuses to replace or remove a node that does not exist', async () => {
      await expect(store().commit(changes({ put: [{ node: region('co'), expectRev: 1 }] }))).rejects.toMatchObject({
        slug: 'region:co',
        actual: 0,
      });
      await expect(store().commit(changes({ remove: [{ slug: 'region:co', expectRev: 1 }] }))).rejects.toBeInstanceOf(
        RevConflictError,
      );
    });

    it('applies nothing of a change set when any one rev conflicts', async () => {
      await store().commit(
        creates([region('co'), region('wy'), region('nm')], {
          link: [edge('WITHIN', 'region:co', 'region:us')],
          events: [event('region:co')],
        }),
      );
      const before = await store().stats();
      const attempt = changes({
        put: [
          { node: region('ut'), expectRev: 0 },
          { node: region('co', { name: 'changed' }), expectRev: 1 },
          { node: region('wy', { name: 'stale' }), expectRev: 7 },
        ],
        remove: [{ slug: 'region:nm', expectRev: 1 }],
        link: [edge('WITHIN', 'region:ut', 'region:us')],
        unlink: [edge('WITHIN', 'region:co', 'region:us')],
        events: [event('region:ut')],
      });
      await expect(store().commit(attempt)).rejects.toBeInstanceOf(RevConflictError);
      expect(await store().getNode('region:ut')).toBeUndefined();
      expect(await store().getNode('region:nm')).toBeDefined();
      expect((await store().getNode<'region'>('region:co'))?.data.name).toBe('co');
      expect(await store().edges('region:co', 'out')).toHaveLength(1);
      expect(await store().edges('region:us', 'in')).toHaveLength(1);
      expect(await store().pendingEvents(10)).toHaveLength(1);
      expect(await store().stats()).toEqual(before);
    });

    it('refuses a change set that names one slug twice, applying nothing', async () => {
      await store().commit(creates([region('co')]));
      const twice = changes({
        put: [
          { node: region('wy'), expectRev: 0 },
          { node: region('co'), expectRev: 1 },
        ],
        remove: [{ slug: 'region:co', expectRev: 1 }],
      });
      await expect(store().commit(twice)).rejects.toMatchObject({ name: 'InvalidParameterError' });
      expect(await store().getNode('region:wy')).toBeUndefined();
    });

    it('removes a node with every edge touching it, leaving other edges', async () => {
      const c = contest('a');
      await store().commit(
        creates([region('co'), region('co-cd-1'), c, candidacy('x', { contest: c.slug })], {
          link: [
            edge('IN_REGION', c.slug, 'region:co-cd-1'),
            edge('FOR_CONTEST', 'candidacy:x', c.slug),
            edge('WITHIN', 'region:co-cd-1', 'region:co'),
          ],
        }),
      );
      await store().commit(changes({ remove: [{ slug: c.slug, expectRev: 1 }] }));
      expect(await store().getNode(c.slug)).toBeUndefined();
      expect(await store().edges('region:co-cd-1', 'in')).toEqual([]);
      expect(await store().edges('candidacy:x', 'out')).toEqual([]);
      expect(await store().edges('region:co-cd-1', 'out')).toEqual([edge('WITHIN', 'region:co-cd-1', 'region:co')]);
      expect(await store().stats()).toMatchObject({ nodes: 3, edges: 1 });
    });

    it('answers edgesOf as edges, node by node, in the order asked', async () => {
      const c = contest('a');
      await store().commit(
        creates([region('co'), region('co-cd-1'), c, candidacy('x', { contest: c.slug })], {
          link: [
            edge('IN_REGION', c.slug, 'region:co-cd-1'),
            edge('FOR_CONTEST', 'candidacy:x', c.slug),
            edge('WITHIN', 'region:co-cd-1', 'region:co'),
          ],
        }),
      );
      const slugs = ['region:co-cd-1', 'region:nope', c.slug, 'candidacy:x', 'not a slug'];
      for (const direction of ['out', 'in'] as const) {
        for (const kind of [undefined, 'IN_REGION', 'FOR_CONTEST'] as const) {
          const each = await Promise.all(slugs.map((s) => store().edges(s, direction, kind)));
          expect((await store().edgesOf(slugs, direction, kind)).map(sortEdges)).toEqual(each.map(sortEdges));
        }
      }
      expect(await store().edgesOf([], 'out')).toEqual([]);
    });

    it('returns getNodes in the order asked, leaving missing slugs out', async () => {
      await store().commit(creates([region('co'), region('wy'), region('ut')]));
      const got = await store().getNodes(['region:ut', 'region:nope', 'region:co', 'region:wy']);
      expect(got.map((n) => n.slug)).toEqual(['region:ut', 'region:co', 'region:wy']);
      expect(await store().getNodes([])).toEqual([]);
    });

    it('refuses malformed parts with an error naming them, applying nothing', async () => {
      const bad = [
        changes({ put: [{ node: { ...region('co'), slug: 'party:co' }, expectRev: 0 }] }),
        changes({ put: [{ node: region('co'), expectRev: -1 }] }),
        changes({ put: [{ node: region('co'), expectRev: 0 }], link: [edge('WITHIN', 'region:co', '')] }),
        changes({
          put: [{ node: region('co'), expectRev: 0 }],
          link: [edge('WITHIN', 'region:co', 'region:us', 'k'.repeat(501))],
        }),
        changes({
          put: [{ node: region('co'), expectRev: 0 }],
          link: [{ ...edge('WITHIN', 'region:co', 'region:us'), kind: 'NEAR' as 'WITHIN' }],
        }),
      ];
      const fields = [];
      for (const set of bad) {
        const err = await store()
          .commit(set)
          .catch((e: unknown) => e);
        expect(err).toMatchObject({ name: 'InvalidParameterError' });
        fields.push((err as { field: string }).field);
      }
      expect(fields).toEqual(['put[0].node.slug', 'put[0].expectRev', 'link[0].to', 'link[0].key', 'link[0].kind']);
      expect(await store().stats()).toMatchObject({ nodes: 0, edges: 0 });
    });

    it('keeps a stored node apart from the object the caller committed', async () => {
      const node = region('co');
      await store().commit(creates([node]));
      node.data.name = 'changed after commit';
      expect((await store().getNode<'region'>('region:co'))?.data.name).toBe('co');
    });

    it('counts nodes, edges and pending events in stats', async () => {
      expect(await store().stats()).toMatchObject({ nodes: 0, edges: 0, pendingEvents: 0 });
      await store().commit(
        creates([region('co'), region('us')], {
          link: [edge('WITHIN', 'region:co', 'region:us')],
          events: [event('region:co'), event('region:us')],
        }),
      );
      const stats = await store().stats();
      expect(stats).toMatchObject({ nodes: 2, edges: 1, pendingEvents: 2 });
      expect(stats.indexBytes === null || stats.indexBytes > 0).toBe(true);
    });
  });
}

function describeEdges(store: () => GraphStore): void {
  describe('edges', () => {
    const c = 'contest:co-cd-1-us-representative-2026-general';
    beforeEach(async () => {
      await store().commit(
        creates(
          [
            contest('co-cd-1-us-representative-2026-general'),
            candidacy('x', { contest: c }),
            candidacy('y', { contest: c }),
          ],
          {
            link: [
              edge('FOR_CONTEST', 'candidacy:x', c),
              edge('FOR_CONTEST', 'candidacy:y', c),
              edge('OF_PARTY', 'candidacy:x', 'party:dem'),
              edge('IN_REGION', c, 'region:co-cd-1'),
              edge('FOR_OFFICE', c, 'office:us-representative-co-1'),
            ],
          },
        ),
      );
    });

    it('lists edges leaving and entering a node, optionally of one kind', async () => {
      expect(sortEdges(await store().edges(c, 'in'))).toEqual([
        edge('FOR_CONTEST', 'candidacy:x', c),
        edge('FOR_CONTEST', 'candidacy:y', c),
      ]);
      expect(sortEdges(await store().edges(c, 'out'))).toEqual([
        edge('FOR_OFFICE', c, 'office:us-representative-co-1'),
        edge('IN_REGION', c, 'region:co-cd-1'),
      ]);
      expect(await store().edges(c, 'out', 'IN_REGION')).toEqual([edge('IN_REGION', c, 'region:co-cd-1')]);
      expect(await store().edges('candidacy:x', 'out', 'OF_PARTY')).toEqual([
        edge('OF_PARTY', 'candidacy:x', 'party:dem'),
      ]);
      expect(await store().edges(c, 'in', 'OF_PARTY')).toEqual([]);
      expect(await store().edges('region:nowhere', 'in')).toEqual([]);
    });

    it('replaces an edge linked again with the same identity, and keeps parallel edges by key', async () => {
      const term = (key: string, end: string | null) => edge('HOLDS', 'person:p', 'office:o', key, { start: key, end });
      await store().commit(changes({ link: [term('2019-01-03', null), term('2023-01-03', null)] }));
      await store().commit(changes({ link: [term('2019-01-03', '2021-01-03')] }));
      expect(sortEdges(await store().edges('person:p', 'out', 'HOLDS'))).toEqual([
        term('2019-01-03', '2021-01-03'),
        term('2023-01-03', null),
      ]);
      expect(await store().edges('office:o', 'in')).toHaveLength(2);
    });

    it('unlinks an edge from both ends and ignores edges that do not exist', async () => {
      await store().commit(
        changes({ unlink: [edge('FOR_CONTEST', 'candidacy:x', c), edge('FOR_CONTEST', 'candidacy:nope', c)] }),
      );
      expect(await store().edges(c, 'in')).toEqual([edge('FOR_CONTEST', 'candidacy:y', c)]);
      expect(await store().edges('candidacy:x', 'out')).toEqual([edge('OF_PARTY', 'candidacy:x', 'party:dem')]);
      expect((await store().stats()).edges).toBe(4);
    });

    it('unlinks then links in one change set, so an edge can be swapped for its replacement', async () => {
      await store().commit(
        changes({
          unlink: [edge('OF_PARTY', 'candidacy:x', 'party:dem')],
          link: [edge('OF_PARTY', 'candidacy:x', 'party:rep')],
        }),
      );
      expect(await store().edges('candidacy:x', 'out', 'OF_PARTY')).toEqual([
        edge('OF_PARTY', 'candidacy:x', 'party:rep'),
      ]);
      expect(await store().edges('party:dem', 'in')).toEqual([]);
    });
  });
}

function describeOutbox(store: () => GraphStore): void {
  describe('outbox', () => {
    it('keeps committed events pending in commit order with increasing seq, up to the limit asked', async () => {
      const events = [event('region:co'), event('region:wy'), event('region:ut')];
      await store().commit(creates([region('co'), region('wy')], { events: events.slice(0, 2) }));
      await store().commit(creates([region('ut')], { events: events.slice(2) }));
      const pending = await store().pendingEvents(10);
      expect(pending.map((p) => p.event)).toEqual(events);
      expect(pending.map((p) => p.seq)).toEqual([...pending.map((p) => p.seq)].sort((a, b) => a - b));
      expect(new Set(pending.map((p) => p.seq)).size).toBe(3);
      expect((await store().pendingEvents(2)).map((p) => p.event.id)).toEqual([events[0]?.id, events[1]?.id]);
      expect(await store().pendingEvents(0)).toEqual([]);
    });

    it('drops acknowledged events, ignores unknown ids, and keeps seq increasing after an ack', async () => {
      const [a, b, c] = [event('region:a'), event('region:b'), event('region:c')];
      await store().commit(changes({ events: [a, b] }));
      await store().ackEvents([a.id, 'evt_unknown']);
      await store().ackEvents([]);
      await store().commit(changes({ events: [c] }));
      const pending = await store().pendingEvents(10);
      expect(pending.map((p) => p.event.id)).toEqual([b.id, c.id]);
      expect(pending[1]?.seq).toBeGreaterThan(pending[0]?.seq ?? Infinity);
      await store().ackEvents([b.id, c.id]);
      expect(await store().pendingEvents(10)).toEqual([]);
      expect((await store().stats()).pendingEvents).toBe(0);
    });

    it('stores no event of a change set refused for a conflict', async () => {
      await expect(
        store().commit(changes({ put: [{ node: region('co'), expectRev: 3 }], events: [event('region:co')] })),
      ).rejects.toBeInstanceOf(RevConflictError);
      expect(await store().pendingEvents(10)).toEqual([]);
    });
  });
}
