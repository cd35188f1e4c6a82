import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeGraphStoreConformance } from '../conformance.js';
import { changes, contest, creates, edge, event, region } from '../conformance-fixtures.js';
import { LOG_KEEP } from './change-log.js';
import { LmdbGraphStore } from './lmdb-graph-store.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'civic-graph-lmdb-'));
  dirs.push(dir);
  return join(dir, 'graph');
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describeGraphStoreConformance('LmdbGraphStore', async () => LmdbGraphStore.open(await freshDir()));

describe('LmdbGraphStore on disk', () => {
  let path: string;
  const open: LmdbGraphStore[] = [];
  const openStore = async (): Promise<LmdbGraphStore> => {
    const s = await LmdbGraphStore.open(path);
    open.push(s);
    return s;
  };
  beforeEach(async () => {
    path = await freshDir();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('keeps nodes, edges and pending events across close and reopen, and serves queries from them', async () => {
    const first = await openStore();
    await first.commit(
      creates([region('co'), contest('a', { region: 'region:co' })], {
        link: [edge('IN_REGION', 'contest:a', 'region:co')],
        events: [event('contest:a')],
      }),
    );
    await first.commit(changes({ put: [{ node: region('co', { name: 'Colorado' }), expectRev: 1 }] }));
    await first.close();
    const again = await openStore();
    expect(await again.getNode('region:co')).toMatchObject({ rev: 2, data: { name: 'Colorado' } });
    expect(await again.edges('region:co', 'in')).toEqual([edge('IN_REGION', 'contest:a', 'region:co')]);
    expect((await again.query({ kind: 'contest', match: { region: ['region:co'] }, limit: 10 })).nodes).toHaveLength(1);
    expect((await again.pendingEvents(10)).map((p) => p.event.slugs)).toEqual([['contest:a']]);
    await again.commit(changes({ events: [event('region:co')] }));
    const seqs = (await again.pendingEvents(10)).map((p) => p.seq);
    expect(seqs[1]).toBeGreaterThan(seqs[0] ?? Infinity);
  });

  it('sees on its next read what another instance on the same directory committed', async () => {
    const service = await openStore();
    const cli = await openStore();
    await service.commit(creates([region('co')]));
    expect(await cli.getNode('region:co')).toBeDefined();
    await cli.commit(
      changes({
        put: [
          { node: region('co', { name: 'Colorado' }), expectRev: 1 },
          { node: contest('a', { region: 'region:co' }), expectRev: 0 },
        ],
        link: [edge('IN_REGION', 'contest:a', 'region:co')],
        events: [event('contest:a')],
      }),
    );
    expect((await service.getNode<'region'>('region:co'))?.data.name).toBe('Colorado');
    expect(await service.edges('region:co', 'in')).toHaveLength(1);
    expect((await service.query({ kind: 'contest', match: { region: ['region:co'] }, limit: 10 })).nodes).toHaveLength(
      1,
    );
    expect(await service.pendingEvents(10)).toHaveLength(1);
    await cli.commit(changes({ remove: [{ slug: 'contest:a', expectRev: 1 }] }));
    expect(await service.edges('region:co', 'in')).toEqual([]);
    expect((await service.query({ kind: 'contest', limit: 10 })).nodes).toEqual([]);
    expect(await service.stats()).toMatchObject({ nodes: 1, edges: 0, pendingEvents: 1 });
  });

  it('checks revs against the directory, not its own index, when another instance wrote first', async () => {
    const a = await openStore();
    const b = await openStore();
    await a.commit(creates([region('co')]));
    await b.commit(changes({ put: [{ node: region('co', { name: 'by b' }), expectRev: 1 }] }));
    await expect(
      a.commit(changes({ put: [{ node: region('co', { name: 'by a' }), expectRev: 1 }] })),
    ).rejects.toMatchObject({ name: 'RevConflictError', actual: 2 });
    await a.commit(changes({ put: [{ node: region('co', { name: 'by a' }), expectRev: 2 }] }));
    expect((await b.getNode<'region'>('region:co'))?.data.name).toBe('by a');
    expect((await a.getNode<'region'>('region:co'))?.rev).toBe(3);
  });

  it('keeps its index right when its own commits interleave with another instance’s', async () => {
    const a = await openStore();
    const b = await openStore();
    const writes = [];
    for (let i = 0; i < 20; i++) {
      const s = i % 2 === 0 ? a : b;
      writes.push(
        s.commit(
          creates([contest(`c${i}`, { region: `region:r${i % 3}` })], {
            link: [edge('IN_REGION', `contest:c${i}`, `region:r${i % 3}`)],
          }),
        ),
      );
    }
    await Promise.all(writes);
    for (const s of [a, b]) {
      expect((await s.query({ kind: 'contest', limit: 100 })).nodes).toHaveLength(20);
      expect((await s.edges('region:r0', 'in')).length).toBe(7);
      expect(await s.stats()).toMatchObject({ nodes: 20, edges: 20 });
    }
  });

  it('answers a concurrent batch of commits with one conflict by refusing only that one', async () => {
    const store = await openStore();
    await store.commit(creates([region('co')]));
    const results = await Promise.allSettled([
      store.commit(creates([region('wy')])),
      store.commit(
        changes({
          put: [{ node: region('co', { name: 'stale' }), expectRev: 5 }],
          link: [edge('WITHIN', 'region:co', 'region:us')],
        }),
      ),
      store.commit(creates([region('ut')])),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.edges('region:co', 'out')).toEqual([]);
    const reopened = await openStore();
    expect((await reopened.getNodes(['region:co', 'region:wy', 'region:ut'])).map((n) => n.slug)).toEqual([
      'region:co',
      'region:wy',
      'region:ut',
    ]);
    expect(await reopened.edges('region:co', 'out')).toEqual([]);
  });

  it('rolls back every write of a change set that fails midway, leaving batched neighbours alone', async () => {
    const store = await openStore();
    // MessagePack cannot hold this number: the second node's write throws after the first's.
    const unencodable = {
      ...region('ut'),
      data: { ...region('ut').data, population: (2n ** 70n) as unknown as number },
    };
    const results = await Promise.allSettled([
      store.commit(creates([region('wy')])),
      store.commit(
        creates([region('co'), unencodable], {
          link: [edge('WITHIN', 'region:co', 'region:us')],
          events: [event('region:co')],
        }),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    const reopened = await openStore();
    expect(await reopened.getNodes(['region:co', 'region:ut', 'region:wy'])).toEqual([
      await store.getNode('region:wy'),
    ]);
    expect(await reopened.pendingEvents(10)).toEqual([]);
    expect(await store.stats()).toMatchObject({ nodes: 1, edges: 0, pendingEvents: 0 });
  });

  it('rebuilds its index when it fell further behind than the change log reaches', async () => {
    expect(LOG_KEEP).toBeGreaterThan(1000);
    const service = await openStore();
    await service.commit(creates([region('co')]));
    const cli = await openStore();
    await cli.commit(changes({ remove: [{ slug: 'region:co', expectRev: 1 }] }));
    await cli.commit(creates([region('wy')]));
    // Simulate a pruned log: drop the entries the service has not applied yet.
    const dbs = (cli as unknown as { dbs: { log: { removeSync(k: number): boolean } } }).dbs;
    dbs.log.removeSync(2);
    dbs.log.removeSync(3);
    expect(await service.getNode('region:co')).toBeUndefined();
    expect(await service.getNode('region:wy')).toBeDefined();
  });
});
