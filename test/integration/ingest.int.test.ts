import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBoundaryImport, connectGraphImport, Ingest, IngestStore, SOURCES } from '@civicgraph/ingest';
import { createLogger, type CivicEvent } from '@civicgraph/kit';
import { send, SHARED_DATA, startStack, type Stack } from '../harness/stack.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import { scaled } from '@civicgraph/kit/testing';

// The ingest service against a local HTTP mirror of shared/data: a server of the test's own
// that answers conditional requests (ETag, If-None-Match → 304) as a real host does.
const FEC = 'candidates/fec/weball26.txt';
const DEGETTE = 'candidacy:co-cd-1-us-representative-2026-primary-diana-l-degette';

interface Mirror {
  url: string;
  requests: { path: string; status: number }[];
  write(path: string, text: string): void;
  stop(): Promise<void>;
}

async function startMirror(root: string): Promise<Mirror> {
  const requests: Mirror['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').slice(1));
    let body: Buffer;
    try {
      body = readFileSync(join(root, path));
    } catch {
      requests.push({ path, status: 404 });
      res.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    const status = req.headers['if-none-match'] === etag ? 304 : 200;
    requests.push({ path, status });
    res
      .writeHead(status, { ETag: etag, 'Last-Modified': 'Wed, 24 Jun 2026 00:00:00 GMT' })
      .end(status === 304 ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    write: (path, text) => writeFileSync(join(root, path), text),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let stack: Stack;
let mirror: Mirror;
let receiver: Receiver;
let root: string;
let store: IngestStore;
let graph: ReturnType<typeof connectGraphImport>;
let boundaries: ReturnType<typeof connectBoundaryImport>;
let ingest: Ingest;
let secret: string;
const events: CivicEvent[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'civic-mirror-'));
  mkdirSync(dirname(join(root, FEC)), { recursive: true });
  copyFileSync(join(SHARED_DATA, FEC), join(root, FEC));
  mirror = await startMirror(root);
  receiver = await startReceiver();
  stack = await startStack({ webhooks: true, serves: 'test' });
  await stack.bus.subscribe('civic.test.>', async (e) => {
    events.push(e);
  });
  const key = await stack.key();
  const endpoint = await send(`${stack.url}/v1/webhooks`, 'POST', key, {
    url: `${receiver.url}/fec`,
    events: ['candidacy.updated', 'candidacy.created'],
    states: ['CO'],
  });
  expect(endpoint.status).toBe(201);
  secret = endpoint.body.secret;
  store = IngestStore.open(join(stack.dataDir, 'ingest', 'state'));
  // The graph imports over its gRPC ImportSource, as the ingest service does.
  graph = connectGraphImport(stack.graph.address, stack.serves);
  boundaries = connectBoundaryImport(stack.geo.address, stack.serves);
  ingest = new Ingest(
    {
      origin: { kind: 'http', base: mirror.url },
      store,
      filesDir: join(stack.dataDir, 'ingest', 'files'),
      graph,
      boundaries,
      now: () => new Date(),
      log: createLogger('test', 'silent'),
    },
    SOURCES.filter((s) => s.id === 'fec-weball26'),
  );
}, scaled(120_000));
afterAll(async () => {
  await ingest?.stop();
  await store?.close();
  graph?.close();
  boundaries?.close();
  await stack?.stop();
  await receiver?.stop();
  await mirror?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Publishes what the outbox holds and waits until the bus has handed every event to the subscriber. */
async function settle(): Promise<number> {
  for (;;) {
    const seen = events.length;
    await stack.graph.drainOutbox();
    await new Promise((resolve) => setImmediate(resolve));
    if (events.length === seen) return seen;
  }
}

/** Events the graph published since `from`, once the outbox is drained. */
async function eventsSince(from: number): Promise<CivicEvent[]> {
  await settle();
  return events.slice(from);
}

describe('the ingest service, fed by a mirror over HTTP', () => {
  it(
    'imports a source the first time, recording its version, rows and events',
    async () => {
      const [run] = await ingest.run();
      expect(run).toMatchObject({ source: 'fec-weball26', status: 'changed', error: null });
      expect(run!.rows!.created).toBeGreaterThan(3000);
      expect(run!.events).toBeGreaterThan(3000);
      const { state } = ingest.list()[0]!;
      expect(state).toMatchObject({ status: 'ok', failures: 0, version: expect.stringMatching(/^"[0-9a-f]{16}"$/) });
      expect(await stack.graph.store.getNode(DEGETTE)).toBeDefined();
    },
    scaled(120_000),
  );

  it(
    'fetches conditionally the second time: a 304, nothing imported, nothing emitted',
    async () => {
      const before = await settle();
      const requestsBefore = mirror.requests.length;
      const [run] = await ingest.run();
      expect(run).toMatchObject({ status: 'unchanged', rows: null });
      expect(mirror.requests.slice(requestsBefore)).toEqual([{ path: FEC, status: 304 }]);
      expect(await eventsSince(before)).toEqual([]);
    },
    scaled(60_000),
  );

  it(
    "a changed file yields exactly the changed candidacy's event, and its webhook delivery",
    async () => {
      const text = readFileSync(join(root, FEC), 'utf8');
      const row = text.split('\n').find((l) => l.startsWith('H6CO01141|'))!;
      // Diana DeGette's row, with its party as an independent's.
      mirror.write(FEC, text.replace(row, row.replace('|DEM|', '|IND|')));
      const before = await settle();
      const [run] = await ingest.run();
      expect(run).toMatchObject({ status: 'changed' });
      expect(run!.rows).toMatchObject({ created: 0, updated: 1 });
      const emitted = await eventsSince(before);
      expect(emitted.map((e) => `${e.type} ${e.slugs[0]}`).filter((t) => !t.startsWith('party.'))).toEqual([
        `candidacy.updated ${DEGETTE}`,
      ]);
      expect(emitted.find((e) => e.slugs[0] === DEGETTE)!.changedFields).toContain('party');
      await expect
        .poll(() => receiver.verified(secret, '/fec').map((p) => p.data.slugs[0]), { timeout: scaled(60_000) })
        .toContain(DEGETTE);
      expect(
        receiver
          .verified(secret, '/fec')
          .filter((p) => p.type === 'candidacy.updated')
          .map((p) => p.data.slugs[0]),
      ).toEqual([DEGETTE]);
    },
    scaled(120_000),
  );

  it(
    'a source that returns garbage is marked failed with its reason and retried with backoff; the previous data still serves',
    async () => {
      mirror.write(FEC, '<html><body>503 Service Unavailable</body></html>\n');
      const [run] = await ingest.run();
      expect(run).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/rows rejected.*not a usable version of the source/),
      });
      const { state } = ingest.list()[0]!;
      expect(state).toMatchObject({ status: 'failed', failures: 1, error: run!.error });
      const wait = Date.parse(state.nextAttemptAt!) - Date.parse(state.lastFetchAt!);
      expect(wait).toBe(60_000);
      expect((await stack.graph.store.getNode<'candidacy'>(DEGETTE))?.data.fields.party?.value).toBe(
        'party:independent',
      );
    },
    scaled(60_000),
  );

  it(
    'an unreachable source is marked failed too, and waits longer after each failure',
    async () => {
      await mirror.stop();
      const [run] = await ingest.run();
      expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/unreachable/) });
      const { state } = ingest.list()[0]!;
      expect(state.failures).toBe(2);
      expect(Date.parse(state.nextAttemptAt!) - Date.parse(state.lastFetchAt!)).toBe(120_000);
      expect(await stack.graph.store.getNode(DEGETTE)).toBeDefined();
    },
    scaled(60_000),
  );
});
