import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBoundaryFiles, LmdbBoundaryStore } from '@civicgraph/geo';
import { GraphWriter, importSource, openGraphStore, type GraphStore } from '@civicgraph/graph';
import { createLogger, SHARED_DATA_DIR } from '@civicgraph/kit';
import { Ingest } from './ingest.js';
import { SOURCES } from './registry.js';
import { READER_REVISIONS } from './run/reader-revisions.js';
import { IngestStore } from './state/ingest-store.js';

// The schedule on a clock of the test's own: a mirror folder that lacks the source's file
// fails it, each retry waits twice as long, and the first success returns it to its refresh.
// The imports run the graph's and geo's own import code in this process (their RPCs' code
// without the transport, as `civicgraph sources run` does); import.int.test.ts covers the RPCs.
const SOURCE = SOURCES.find((s) => s.id === 'co-sldl-2021')!;
const MINUTE = 60_000;

let dir: string;
let mirror: string;
let graph: GraphStore;
let boundaries: LmdbBoundaryStore;
let store: IngestStore;
let ingest: Ingest;
let clock = Date.parse('2026-11-25T12:00:00Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'civic-ingest-'));
  mirror = join(dir, 'mirror');
  mkdirSync(mirror);
  graph = await openGraphStore({ kind: 'embedded' }, join(dir, 'graph'));
  boundaries = LmdbBoundaryStore.open(join(dir, 'geo'));
  store = IngestStore.open(join(dir, 'ingest', 'state'));
  ingest = new Ingest(
    {
      origin: { kind: 'folder', path: mirror },
      store,
      filesDir: join(dir, 'ingest', 'files'),
      graph: { importSource: (req) => importSource(graph, new GraphWriter({ store: graph, env: 'test' }), req) },
      boundaries: { importBoundaries: (req) => importBoundaryFiles(boundaries, req) },
      now: () => new Date(clock),
      log: createLogger('test', 'silent'),
    },
    [SOURCE],
  );
});
afterAll(async () => {
  await ingest.stop();
  await store.close();
  await boundaries.close();
  await graph.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (ms: number) => (clock += ms);
const state = () => ingest.list()[0]!.state;

describe('Ingest.runDue', () => {
  it('runs a never-fetched source at once; a missing file fails it with the reason and a 1-minute backoff', async () => {
    const [run] = await ingest.runDue();
    expect(run).toMatchObject({
      source: SOURCE.id,
      status: 'failed',
      error: expect.stringContaining("cannot read the mirror's copy (ENOENT)"),
    });
    expect(state()).toMatchObject({
      status: 'failed',
      failures: 1,
      nextAttemptAt: new Date(clock + MINUTE).toISOString(),
    });
  });

  it('leaves it alone until the backoff has passed, then retries and doubles the wait', async () => {
    at(59_000);
    expect(await ingest.runDue()).toEqual([]);
    at(1_000);
    expect((await ingest.runDue()).map((r) => r.status)).toEqual(['failed']);
    expect(state()).toMatchObject({ failures: 2, nextAttemptAt: new Date(clock + 2 * MINUTE).toISOString() });
  });

  it("imports the file once it is there, resets the failures and waits for the source's refresh", async () => {
    const file = join(mirror, SOURCE.files[0]!.mirror!);
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(join(SHARED_DATA_DIR, SOURCE.files[0]!.mirror!), file);
    at(2 * MINUTE);
    const [run] = await ingest.runDue();
    expect(run).toMatchObject({ status: 'changed', rows: { created: 65, rejected: 0 }, error: null });
    expect(state()).toMatchObject({
      status: 'ok',
      failures: 0,
      error: null,
      nextAttemptAt: new Date(clock + SOURCE.refreshHours * 3_600_000).toISOString(),
    });
    expect(boundaries.layers().map((l) => [l.key.state, l.key.validFrom, l.regions.length])).toEqual([
      ['co', '2023-01-09', 65],
    ]);
    at(SOURCE.refreshHours * 3_600_000 - 1);
    expect(await ingest.runDue()).toEqual([]);
    at(1);
    expect((await ingest.runDue()).map((r) => r.status)).toEqual(['unchanged']);
  });

  it('imports the same content again, once, when it was imported under an older reader revision', async () => {
    expect(state().readerRevision).toBe(READER_REVISIONS.boundaries);
    // As a deployment upgraded from a release whose boundary reader was older left it.
    await store.saveState({ ...state(), readerRevision: READER_REVISIONS.boundaries - 1 });
    at(SOURCE.refreshHours * 3_600_000);
    const [run] = await ingest.runDue();
    expect(run).toMatchObject({ status: 'changed', rows: { created: 0, unchanged: 65, rejected: 0 } });
    expect(state().readerRevision).toBe(READER_REVISIONS.boundaries);
    at(SOURCE.refreshHours * 3_600_000);
    expect((await ingest.runDue()).map((r) => r.status)).toEqual(['unchanged']);
  });
});
