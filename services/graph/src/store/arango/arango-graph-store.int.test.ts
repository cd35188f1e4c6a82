import { randomBytes } from 'node:crypto';
import { Database } from 'arangojs';
import { afterAll, describe, expect, it } from 'vitest';
import { changes, contest, creates, edge, event, region } from '../conformance-fixtures.js';
import { describeGraphStoreConformance } from '../conformance.js';
import { RevConflictError, type GraphStore } from '../graph-store.js';
import { ArangoGraphStore } from './arango-graph-store.js';
import { collectionNames, indexPlan } from './arango-schema.js';
import { resolveArangoTestTarget, type ArangoTestServer } from './arango-test-server.js';
import { nodeQueryAql } from './node-query-aql.js';

/**
 * The GraphStore conformance suite and the ArangoDB-only behaviour, on a real server:
 * ARANGO_URL when set (it must answer), else arangodb:3.12 under testcontainers when a
 * Docker engine answers, else a loud skip (arango-test-target.ts has the rule). Every
 * store opened here gets its own database, dropped when the store is closed.
 */
const TITLE = 'ArangoGraphStore on a real ArangoDB';
const target = await resolveArangoTestTarget();

if (target.kind === 'skip') {
  console.warn(`\n⚠️  ${target.message}\n`);
  describe.skip(TITLE, () => {
    it('passes the GraphStore conformance suite', () => undefined);
  });
} else if (target.kind === 'fail') {
  const { message } = target;
  describe(TITLE, () => {
    it('reaches the ArangoDB that ARANGO_URL names', () => {
      throw new Error(message);
    });
  });
} else {
  describeOnServer(target.server);
}

function describeOnServer(server: ArangoTestServer): void {
  const auth = { username: server.username, password: server.password };
  const system = new Database({ url: server.url, auth });
  const freshName = (): string => `civic_test_${randomBytes(6).toString('hex')}`;

  /** A store on a fresh database; closing it drops the database. */
  async function openFresh(prefix?: string, database = freshName()): Promise<ArangoGraphStore> {
    const store = await ArangoGraphStore.connect({
      url: server.url,
      database,
      ...auth,
      ...(prefix === undefined ? {} : { prefix }),
    });
    const close = store.close.bind(store);
    store.close = async () => {
      await close();
      await system.dropDatabase(database).catch(() => undefined);
    };
    return store;
  }

  describe(TITLE, () => {
    afterAll(async () => {
      system.close();
      await server.stop();
    });

    describeGraphStoreConformance('arangodb', (): Promise<GraphStore> => openFresh());

    describe('ArangoDB specifics', () => {
      it('connects again to the same database, keeping nodes, indexes and the outbox sequence', async () => {
        const database = freshName();
        const first = await ArangoGraphStore.connect({ url: server.url, database, ...auth });
        await first.commit(creates([region('co')], { events: [event('region:co')] }));
        const indexesBefore = await indexNames(database);
        await first.close();

        const again = await openFresh(undefined, database);
        try {
          expect(await indexNames(database)).toEqual(indexesBefore);
          expect(await again.getNode('region:co')).toMatchObject({ slug: 'region:co', rev: 1 });
          await again.commit(changes({ events: [event('region:wy')] }));
          const seqs = (await again.pendingEvents(10)).map((p) => p.seq);
          expect(seqs).toHaveLength(2);
          expect(seqs[1]).toBeGreaterThan(seqs[0] ?? Infinity);
        } finally {
          await again.close();
        }
      });

      it('creates every planned index at start', async () => {
        const store = await openFresh();
        try {
          const names = await indexNames(store.databaseName);
          for (const index of indexPlan().nodes) expect(names).toContain(index.name);
        } finally {
          await store.close();
        }
      });

      it('stores a slug under its encoded key, with edges between the node documents', async () => {
        const store = await openFresh();
        try {
          await store.commit(
            creates([region('co'), region('us')], { link: [edge('WITHIN', 'region:co', 'region:us')] }),
          );
          const db = system.database(store.databaseName);
          const names = collectionNames('graph_');
          expect(await db.collection(names.nodes).document('region%3Aco')).toMatchObject({ slug: 'region:co' });
          const cursor = await db.query({
            query: 'FOR e IN @@edges RETURN [e._from, e._to]',
            bindVars: { '@edges': names.edges },
          });
          expect(await cursor.all()).toEqual([[`${names.nodes}/region%3Aco`, `${names.nodes}/region%3Aus`]]);
        } finally {
          await store.close();
        }
      });

      it('treats quotes and AQL in values as plain values', async () => {
        const store = await openFresh();
        try {
          await store.commit(creates([region('co')]));
          const evil = '" || true || "';
          expect(await store.getNode(evil)).toBeUndefined();
          expect(await store.edges(evil, 'out')).toEqual([]);
          expect((await store.query({ kind: 'region', states: [evil], limit: 10 })).nodes).toEqual([]);
          expect((await store.query({ kind: 'region', match: { level: [evil] }, limit: 10 })).nodes).toEqual([]);
          expect((await store.query({ kind: 'region', after: evil, limit: 10 })).nodes).toHaveLength(1);
        } finally {
          await store.close();
        }
      });

      it('lets exactly one of two concurrent commits on the same rev win', async () => {
        const store = await openFresh();
        try {
          await store.commit(creates([region('co')]));
          const results = await Promise.allSettled(
            ['a', 'b'].map((name) =>
              store.commit(
                changes({ put: [{ node: region('co', { name }), expectRev: 1 }], events: [event('region:co')] }),
              ),
            ),
          );
          expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
          const rejected = results.find((r) => r.status === 'rejected');
          expect(rejected?.status === 'rejected' ? rejected.reason : undefined).toBeInstanceOf(RevConflictError);
          expect(await store.getNode('region:co')).toMatchObject({ rev: 2 });
          expect(await store.pendingEvents(10)).toHaveLength(1);
        } finally {
          await store.close();
        }
      });

      it('keeps two stores with different prefixes in one database apart', async () => {
        const a = await openFresh('a_');
        const b = await ArangoGraphStore.connect({ url: server.url, database: a.databaseName, prefix: 'b_', ...auth });
        try {
          await a.commit(creates([region('co')]));
          expect(await b.getNode('region:co')).toBeUndefined();
          expect((await b.stats()).nodes).toBe(0);
        } finally {
          await b.close();
          await a.close();
        }
      });

      it('answers a match query from an index, not a full scan', async () => {
        const store = await openFresh();
        try {
          await store.commit(creates([contest('a'), contest('b', { region: 'region:co-cd-2' })]));
          const db = system.database(store.databaseName);
          const q = nodeQueryAql(db.collection(collectionNames('graph_').nodes), {
            kind: 'contest',
            match: { region: ['region:co-cd-2'] },
            limit: 10,
          });
          const explained = (await db.explain(q)) as { plan: { nodes: { type: string }[] } };
          const types = explained.plan.nodes.map((n) => n.type);
          expect(types).toContain('IndexNode');
          expect(types).not.toContain('EnumerateCollectionNode');
        } finally {
          await store.close();
        }
      });
    });
  });

  async function indexNames(database: string): Promise<string[]> {
    const indexes = await system.database(database).collection(collectionNames('graph_').nodes).indexes();
    return indexes.map((i) => i.name).sort();
  }
}
