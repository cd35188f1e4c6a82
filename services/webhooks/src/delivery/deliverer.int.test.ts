import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '@civicgraph/kit';
import { runTsModule, scaled } from '@civicgraph/kit/testing';
import { newSigningSecret } from '../signing.js';
import { Deliverer, type Endpoint, type EndpointDirectory } from './deliverer.js';
import { LmdbDeliveryLog } from './lmdb-delivery-log.js';

/** Real receivers, a real LMDB delivery log, real HTTP: the deliverer end to end. */

const secret = newSigningSecret();
let server: Server;
let base: string;
/** Verified message ids each path received, in order. */
const seen = new Map<string, string[]>();
/** Per path: how to answer the n-th request (0-based); default 200. */
const behaviour = new Map<string, (n: number, res: ServerResponse) => void>();

/** The last verified body each path received. */
const bodies = new Map<string, unknown>();

function receive(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req
    .setEncoding('utf8')
    .on('data', (c) => (body += c))
    .on('end', () => {
      const path = req.url!;
      bodies.set(path, new Webhook(secret).verify(body, req.headers as Record<string, string>));
      const ids = seen.get(path) ?? [];
      ids.push(String(req.headers['webhook-id']));
      seen.set(path, ids);
      const answer = behaviour.get(path) ?? ((_n: number, r: ServerResponse) => void r.writeHead(200).end());
      answer(ids.length - 1, res);
    });
}

class Directory implements EndpointDirectory {
  readonly endpoints = new Map<string, Endpoint>();
  add(id: string, path: string): void {
    this.endpoints.set(id, { id, url: `${base}${path}`, environment: 'test', secrets: [secret], enabled: true });
  }
  async get(id: string) {
    return this.endpoints.get(id);
  }
  async disable(id: string) {
    this.endpoints.get(id)!.enabled = false;
  }
}

const dirs: string[] = [];
const deliverers: Deliverer[] = [];
const logs: LmdbDeliveryLog[] = [];
function setUp(options: { timeoutMs?: number; path?: string } = {}) {
  const dir = options.path ?? mkdtempSync(join(tmpdir(), 'civic-deliveries-'));
  if (options.path === undefined) dirs.push(dir);
  const log = LmdbDeliveryLog.open(dir);
  const endpoints = new Directory();
  const deliverer = new Deliverer({
    log,
    endpoints,
    logger: createLogger('test', 'silent'),
    pollMs: 20,
    timeoutMs: options.timeoutMs ?? scaled(2_000),
    // The published schedule's shape, scaled down: 50 ms, 100 ms, then give up.
    delays: (n) => [50, 100][n - 1],
  });
  logs.push(log);
  deliverers.push(deliverer);
  deliverer.start();
  return { log, endpoints, deliverer, dir };
}

beforeAll(async () => {
  server = createServer(receive);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await Promise.all(deliverers.splice(0).map((d) => d.stop()));
  await Promise.all(logs.splice(0).map((l) => l.close()));
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function settled(log: LmdbDeliveryLog, id: string) {
  await expect
    .poll(async () => (await log.get(id))?.status, { timeout: scaled(5_000), interval: 20 })
    .not.toBe('pending');
  return (await log.get(id))!;
}

describe('Deliverer', () => {
  it('retries a receiver that answers 500, then 200, logging every attempt with its status and latency', async () => {
    const { log, endpoints, deliverer } = setUp();
    endpoints.add('we_flaky', '/flaky');
    behaviour.set('/flaky', (n, res) => void res.writeHead(n === 0 ? 500 : 200).end(n === 0 ? 'not yet' : 'ok'));
    const d = await deliverer.enqueue('we_flaky', 'evt_flaky', 'candidacy.updated', '{"n":1}');
    const done = await settled(log, d.id);
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(done.attempts[0]!.excerpt).toBe('not yet');
    for (const a of done.attempts) expect(a.latencyMs).toEqual(expect.any(Number));
    expect(seen.get('/flaky')).toEqual(['evt_flaky', 'evt_flaky']);
  });

  it('marks a delivery failed when the schedule runs out', async () => {
    const { log, endpoints, deliverer } = setUp();
    endpoints.add('we_down', '/down');
    behaviour.set('/down', (_n, res) => void res.writeHead(503).end());
    const done = await settled(log, (await deliverer.enqueue('we_down', 'evt_down', 'contest.created', '{}')).id);
    expect(done).toMatchObject({ status: 'failed', nextAttemptAt: '' });
    expect(done.attempts).toHaveLength(3);
  });

  it('disables an endpoint that answers 410 Gone, and attempts nothing more for it', async () => {
    const { log, endpoints, deliverer } = setUp();
    endpoints.add('we_gone', '/gone');
    behaviour.set('/gone', (_n, res) => void res.writeHead(410).end());
    const first = await settled(log, (await deliverer.enqueue('we_gone', 'evt_g1', 'contest.created', '{}')).id);
    expect(first.status).toBe('failed');
    expect(endpoints.endpoints.get('we_gone')!.enabled).toBe(false);
    const second = await settled(log, (await deliverer.enqueue('we_gone', 'evt_g2', 'contest.created', '{}')).id);
    expect(second).toMatchObject({ status: 'failed', attempts: [] });
    expect(seen.get('/gone')).toEqual(['evt_g1']);
  });

  it('keeps a hanging receiver from delaying any other endpoint', async () => {
    const { log, endpoints, deliverer } = setUp({ timeoutMs: 3_000 });
    endpoints.add('we_hang', '/hang');
    endpoints.add('we_fast', '/fast');
    behaviour.set('/hang', () => undefined);
    for (let i = 0; i < 8; i++) await deliverer.enqueue('we_hang', `evt_h${i}`, 'candidacy.updated', '{}');
    const fast: { id: string }[] = [];
    for (let i = 0; i < 8; i++) fast.push(await deliverer.enqueue('we_fast', `evt_f${i}`, 'candidacy.updated', '{}'));
    // Every fast delivery succeeds while the hanging receiver still holds its four lanes.
    await expect
      .poll(async () => (await Promise.all(fast.map((d) => log.get(d.id)))).every((d) => d!.status === 'succeeded'), {
        timeout: scaled(2_000),
        interval: 20,
      })
      .toBe(true);
    expect(seen.get('/hang')?.length ?? 0).toBeLessThanOrEqual(4);
  });

  it('redelivers a message on request: same webhook-id and body, a new delivery in the log', async () => {
    const { log, endpoints, deliverer } = setUp();
    endpoints.add('we_again', '/again');
    const first = await settled(
      log,
      (await deliverer.enqueue('we_again', 'evt_again', 'results.certified', '{"x":1}')).id,
    );
    const again = await deliverer.redeliver(first.id);
    const second = await settled(log, again!.id);
    expect(second).toMatchObject({ status: 'succeeded', messageId: 'evt_again', body: '{"x":1}' });
    expect(second.id).not.toBe(first.id);
    expect(seen.get('/again')).toEqual(['evt_again', 'evt_again']);
    expect((await log.listByEndpoint('we_again', 10)).map((d) => d.id)).toEqual([second.id, first.id]);
    expect(await deliverer.redeliver('dlv_missing')).toBeUndefined();
  });

  it('completes a delivery after the dispatcher is killed mid-attempt, and the receiver can dedupe it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'civic-deliveries-killed-'));
    dirs.push(dir);
    let held: (() => void) | undefined;
    const arrived = new Promise<void>((r) => (held = r));
    // The first attempt is held open until the dispatcher's process is gone.
    behaviour.set('/killed', (n, res) => {
      if (n === 0) {
        held!();
        return;
      }
      res.writeHead(200).end();
    });
    const here = fileURLToPath(new URL('.', import.meta.url));
    const child = runTsModule(
      `
const { Deliverer } = await import(${JSON.stringify(pathToFileURL(join(here, 'deliverer.ts')).href)});
const { LmdbDeliveryLog } = await import(${JSON.stringify(pathToFileURL(join(here, 'lmdb-delivery-log.ts')).href)});
const { createLogger } = await import('@civicgraph/kit');
const log = LmdbDeliveryLog.open(${JSON.stringify(dir)});
const endpoint = { id: 'we_killed', url: ${JSON.stringify(`${base}/killed`)}, environment: 'test', secrets: [${JSON.stringify(secret)}], enabled: true };
const deliverer = new Deliverer({ log, endpoints: { get: async () => endpoint, disable: async () => {} }, logger: createLogger('child', 'silent'), timeoutMs: 60000 });
await deliverer.enqueue('we_killed', 'evt_killed', 'candidacy.updated', JSON.stringify({ pid: process.pid }));
await new Promise(() => {});`,
      'SIGKILL',
    );
    await arrived;
    // Kill the dispatcher's process (its pid is in the body) while the receiver holds its attempt open.
    process.kill((bodies.get('/killed') as { pid: number }).pid, 'SIGKILL');
    await child;
    const { log, endpoints } = setUp({ path: dir });
    endpoints.add('we_killed', '/killed');
    const pending = (await log.listByEndpoint('we_killed', 10))[0]!;
    const done = await settled(log, pending.id);
    expect(done.status).toBe('succeeded');
    // Delivered twice under one webhook-id: at least once, and de-duplicable by the receiver.
    expect(seen.get('/killed')).toEqual(['evt_killed', 'evt_killed']);
    expect(new Set(seen.get('/killed')).size).toBe(1);
  });
});
