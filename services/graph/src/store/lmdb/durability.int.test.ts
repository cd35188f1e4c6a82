import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphStore } from '../graph-store.js';
import { LmdbGraphStore } from './lmdb-graph-store.js';

/**
 * Durability and sharing across processes, with real processes: a child commits change
 * sets in a loop (test/fixtures/durability-child.mjs) and is killed with SIGKILL
 * mid-stream. The child runs the same TypeScript sources as this test, through the
 * module hooks in test/fixtures/ts-hooks.mjs (Node 20 cannot load .ts files itself, and
 * a child on dist/ could silently run a stale build).
 */

const GRAPH = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = join(GRAPH, 'test/fixtures');
const CHILD = join(FIXTURES, 'durability-child.mjs');
const REGISTER = join(FIXTURES, 'ts-register.mjs');
/** Acknowledged commits to wait for before each kill. */
const BEFORE_KILL = 60;
/** One killed writer per round, each writing its own chain of nodes. */
const ROUNDS = ['a', 'b', 'c', 'd'];

interface KilledChild {
  acknowledged: string[];
  signal: NodeJS.Signals | null;
}

/** Runs the child until it has acknowledged `count` commits, then kills it with SIGKILL. */
function runAndKill(path: string, prefix: string, count: number): Promise<KilledChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', REGISTER, CHILD, path, prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killing = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      // A random few milliseconds later, so kills land at varied points of a commit.
      if (!killing && out.split('\n').length - 1 >= count) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), Math.random() * 4);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL')
        reject(new Error(`child exited (code ${code}, signal ${signal}) before the kill:\n${err}`));
      // Only whole lines were acknowledged: a slug cut off by the kill was not printed in full.
      else resolve({ acknowledged: out.split('\n').slice(0, -1), signal });
    });
  });
}

/** Every `region:<prefix>-<i>` node present, with the checks of one whole change set each. */
async function checkChain(store: GraphStore, prefix: string, acknowledged: readonly string[]): Promise<number> {
  const nodes = (await store.query({ kind: 'region', limit: 1000 })).nodes.filter((n) =>
    n.slug.startsWith(`region:${prefix}-`),
  );
  const present = new Set(nodes.map((n) => n.slug));
  for (const slug of acknowledged) expect(present.has(slug), `acknowledged ${slug} is missing`).toBe(true);
  // Commits ran one after another: what survived is a prefix of the sequence, no holes.
  for (let i = 0; i < present.size; i++) expect(present.has(`region:${prefix}-${i}`)).toBe(true);
  const pending = await store.pendingEvents(1000);
  const eventSlugs = new Set(pending.flatMap((p) => p.event.slugs).filter((s) => s.startsWith(`region:${prefix}-`)));
  expect(eventSlugs).toEqual(present);
  for (let i = 0; i < present.size; i++) {
    const slug = `region:${prefix}-${i}`;
    const previous = i === 0 ? 'region:us' : `region:${prefix}-${i - 1}`;
    expect(await store.edges(slug, 'out', 'WITHIN')).toEqual([
      { kind: 'WITHIN', from: slug, to: previous, key: '', data: { i } },
    ]);
    expect((await store.getNode<'region'>(slug))?.data.name).toHaveLength(4096);
  }
  return present.size;
}

describe('LmdbGraphStore across processes and SIGKILL', () => {
  let dir: string;
  let path: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'civic-graph-durability-'));
    path = join(dir, 'graph');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged commit and keeps no half-written one when the writer is killed, and keeps working', async () => {
    // The "service": open before any writer starts, so it must follow them through the change log.
    const service = await LmdbGraphStore.open(path);
    try {
      await service.commit({ put: [], remove: [], link: [], unlink: [], events: [] });
      let total = 0;
      // Several writers in turn, each killed at a different point, each on what the last left.
      for (const prefix of ROUNDS) {
        const killed = await runAndKill(path, prefix, BEFORE_KILL);
        expect(killed.acknowledged.length).toBeGreaterThanOrEqual(BEFORE_KILL);
        await checkChain(service, prefix, killed.acknowledged);
        const reopened = await LmdbGraphStore.open(path);
        try {
          const count = await checkChain(reopened, prefix, killed.acknowledged);
          total += count;
          expect(await reopened.stats()).toMatchObject({ nodes: total, edges: total, pendingEvents: total });
          // A commit the writer finished writing but was killed before announcing becomes
          // visible once the next writer recovers LMDB's lock (opening does): then the
          // service, which never closed, must agree with the fresh view.
          expect(await checkChain(service, prefix, killed.acknowledged)).toBe(count);
        } finally {
          await reopened.close();
        }
      }
      await service.commit({
        put: [
          {
            node: {
              slug: 'region:after',
              kind: 'region',
              state: 'co',
              tier: '',
              data: { name: 'after', level: 'state', fips: '', ocdId: '', aliases: [], population: null },
              rev: 1,
              updatedAt: new Date().toISOString(),
            },
            expectRev: 0,
          },
        ],
        remove: [],
        link: [{ kind: 'WITHIN', from: 'region:after', to: 'region:a-0', key: '', data: {} }],
        unlink: [],
        events: [],
      });
      expect(await service.edges('region:a-0', 'in', 'WITHIN')).toContainEqual({
        kind: 'WITHIN',
        from: 'region:after',
        to: 'region:a-0',
        key: '',
        data: {},
      });
      expect(await service.stats()).toMatchObject({ nodes: total + 1, edges: total + 1, pendingEvents: total });
    } finally {
      await service.close();
    }
  });
});
