import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeView, visibleNode, createLogger, type CivicEvent, type NodeView } from '@civicgraph/kit';
import {
  ExportWorker,
  ExportLinks,
  Exports,
  FsExportStorage,
  LmdbJobStore,
  NODE_KINDS,
  type GraphSnapshot,
  type NodeKind,
} from '@civicgraph/graph';
import { scaled } from '@civicgraph/kit/testing';
import { startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { exportPrincipal, ndjsonFile } from '../harness/exports.js';

/**
 * The promise of the manifest's position: load an export, then apply exactly the events
 * whose seq is above `position.seq`, and you hold what the store holds — nothing missed,
 * nothing applied twice. Changes are committed before the snapshot (their events reach
 * the client too, and must be skipped) and while the export is being written (their
 * events must be applied), through the real worker, store, outbox relay and bus.
 */

const PROVENANCE = 'provenance:demo-synthetic-registry';
let s: Stack;
let dir: string;
const events: CivicEvent[] = [];

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  dir = mkdtempSync(join(tmpdir(), 'civic-export-'));
  await s.graph.drainOutbox();
  await s.bus.subscribe(`civic.${s.env}.>`, (e) => void events.push(e));
}, scaled(60_000));
afterAll(async () => {
  await s?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A snapshot that runs `during` once, after it has yielded `after` candidacies: a commit in the middle of an export. */
function interrupted(snapshot: GraphSnapshot, after: number, during: () => Promise<void>): GraphSnapshot {
  let seen = 0;
  return {
    seq: snapshot.seq,
    getNode: (slug) => snapshot.getNode(slug),
    edges: () => snapshot.edges(),
    countNodes: (kind) => snapshot.countNodes(kind),
    countEdges: () => snapshot.countEdges(),
    close: () => snapshot.close(),
    async *nodes(kind: NodeKind) {
      for await (const node of snapshot.nodes(kind)) {
        yield node;
        if (kind === 'candidacy' && ++seen === after) await during();
      }
    },
  };
}

async function candidacySlugs(): Promise<string[]> {
  const snap = await s.graph.store.snapshot!();
  try {
    const slugs: string[] = [];
    for await (const n of snap.nodes('candidacy')) slugs.push(n.slug);
    return slugs;
  } finally {
    await snap.close();
  }
}

describe('an export joined with the change feed', () => {
  it(
    'loads, then applies the events above its position, and ends where the store is',
    async () => {
      const principal = exportPrincipal();
      const slugs = await candidacySlugs();
      expect(slugs.length).toBeGreaterThan(20);
      // Before the snapshot: the client receives these events, and the export already holds them.
      await s.graph.writer.moveCandidacy(slugs[0]!, { filingStatus: 'WITHDRAWN' }, PROVENANCE);
      await s.graph.writer.moveCandidacy(slugs[slugs.length - 1]!, { filingStatus: 'WITHDRAWN' }, PROVENANCE);
      const duringExport = async () => {
        // One candidacy already written to the file, one not yet reached, and a new node.
        await s.graph.writer.moveCandidacy(slugs[1]!, { filingStatus: 'WITHDRAWN' }, PROVENANCE);
        await s.graph.writer.moveCandidacy(slugs[slugs.length - 2]!, { filingStatus: 'WITHDRAWN' }, PROVENANCE);
        await s.graph.writer.apply({
          nodes: [
            {
              kind: 'party',
              slug: 'party:export-join',
              state: '',
              tier: '',
              data: { name: 'Join', abbreviation: 'JN' },
            },
          ],
          edges: [],
        });
      };
      const jobs = LmdbJobStore.open(join(dir, 'jobs'));
      const storage = new FsExportStorage(join(dir, 'files'));
      const worker = new ExportWorker({
        jobs,
        storage,
        snapshot: async () => interrupted(await s.graph.store.snapshot!(), 5, duringExport),
        log: createLogger('test', 'silent'),
      });
      const exports = new Exports(jobs, storage, new ExportLinks(Buffer.from('test')), () => undefined);
      const job = await exports.create(principal, {
        kinds: [],
        states: [],
        formats: ['ndjson'],
        skipEdges: true,
        idempotencyKey: '',
      });
      expect(await worker.drain()).toBe(1);
      const done = await exports.get(principal, job.id);
      expect(done.status).toBe('succeeded');
      const position = Number(done.manifest!.seq);

      // The client's side: the rows of the export, keyed by slug…
      const held = new Map<string, NodeView>();
      for (const kind of NODE_KINDS)
        for (const row of await ndjsonFile<NodeView>(join(dir, 'files', job.id, `${kind}.ndjson.gz`)))
          held.set(row.slug, row);
      expect(held.has('party:export-join')).toBe(false);

      // …then every event it received, applying those above the position.
      await s.graph.drainOutbox();
      await expect.poll(() => events.some((e) => e.slugs.includes('party:export-join'))).toBe(true);
      const received = [...events].sort((a, b) => Number(a.seq) - Number(b.seq));
      expect(received.every((e) => Number(e.seq) > 0)).toBe(true);
      const skipped = received.filter((e) => Number(e.seq) <= position && e.node !== undefined);
      const applied = received.filter((e) => Number(e.seq) > position);
      expect(skipped.map((e) => e.slugs[0])).toEqual(expect.arrayContaining([slugs[0], slugs[slugs.length - 1]]));
      expect(applied.map((e) => e.slugs[0])).toEqual(
        expect.arrayContaining([slugs[1], slugs[slugs.length - 2], 'party:export-join']),
      );
      // Nothing doubled: what was skipped is already in the export at (or past) the event's rev;
      // nothing missed: what is applied is newer than the export's row (or absent from it).
      for (const e of skipped) expect(held.get(e.node!.slug)?.rev ?? 0).toBeGreaterThanOrEqual(e.node!.rev);
      for (const e of applied.filter((x) => x.node !== undefined))
        expect(held.get(e.node!.slug)?.rev ?? 0).toBeLessThan(e.node!.rev);
      for (const e of applied) {
        if (e.node !== undefined) held.set(e.node.slug, visibleNode(principal, nodeView(e.node)));
        else if (e.subject.endsWith('.deleted')) held.delete(e.slugs[0]!);
      }

      // The store now, read as rows the same way: equal, row for row.
      const now = await s.graph.store.snapshot!();
      try {
        const truth = new Map<string, NodeView>();
        for (const kind of NODE_KINDS)
          for await (const node of now.nodes(kind))
            truth.set(node.slug, JSON.parse(JSON.stringify(visibleNode(principal, nodeViewOf(node)))) as NodeView);
        expect(held.size).toBe(truth.size);
        for (const [slug, row] of truth) expect(JSON.parse(JSON.stringify(held.get(slug))), slug).toEqual(row);
      } finally {
        await now.close();
        await jobs.close();
      }
    },
    scaled(60_000),
  );
});

function nodeViewOf(n: {
  slug: string;
  kind: string;
  state: string;
  tier: string;
  rev: number;
  updatedAt: string;
  data: object;
}) {
  return { slug: n.slug, kind: n.kind, state: n.state, tier: n.tier, rev: n.rev, updatedAt: n.updatedAt, data: n.data };
}
