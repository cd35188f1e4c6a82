// The webhooks benchmark: see ../webhooks.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { createLogger, Lifecycle, makeEvent, NatsEventBus, randomBase62 } from '@civicgraph/kit';
import { defaultGraphConfig, startGraphService } from '@civicgraph/graph';
import { Deliverer, Dispatcher, LmdbDeliveryLog, LmdbEndpointStore, newSigningSecret } from '@civicgraph/webhooks';
import { int } from '../lib/env.mjs';
import { percentile } from '../lib/psql.mjs';
import { writeWebhooksSection } from './report.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const RATE = int('BENCH_WEBHOOK_RATE', 200, 1, 10_000);
const SECONDS = int('BENCH_WEBHOOK_SECONDS', 15, 1, 600);
const BURST = int('BENCH_WEBHOOK_BURST', 3_000, 100, 100_000);
const PERSONS = 100;

const person = (i, name) => ({
  kind: 'person',
  slug: `person:bench-${i}`,
  state: 'co',
  tier: '',
  data: { name, givenName: null, familyName: null, ids: {}, birthday: null, gender: null },
});

/** A receiver that verifies every delivery and notes when each event arrived. */
async function receiver(secret) {
  const arrivals = new Map();
  let verifiedFailures = 0;
  const server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c) => (body += c))
      .on('end', () => {
        try {
          const p = new Webhook(secret).verify(body, req.headers);
          if (!arrivals.has(p.id)) arrivals.set(p.id, { at: Date.now(), committed: Date.parse(p.timestamp) });
        } catch {
          verifiedFailures++;
        }
        res.writeHead(204).end();
      });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    failures: () => verifiedFailures,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

async function waitFor(check, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return check();
}

function latencies(arrivals, since) {
  const ms = [...arrivals.values()]
    .filter((a) => a.committed >= since)
    .map((a) => a.at - a.committed)
    .sort((a, b) => a - b);
  return { n: ms.length, p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), max: ms.at(-1) ?? NaN };
}

/** Raw JetStream: `n` events published on a fresh connection, awaited one by one and 64 at a time. */
async function rawPublish(env, n) {
  const bus = await NatsEventBus.connect({ url: NATS_URL });
  const events = () =>
    Array.from({ length: n }, () =>
      makeEvent({ env, kind: 'region', verb: 'updated', slugs: ['region:x'], version: '1' }),
    );
  let t = performance.now();
  for (const e of events()) await bus.publish(e);
  const sequential = n / ((performance.now() - t) / 1000);
  const batch = events();
  t = performance.now();
  for (let i = 0; i < batch.length; i += 64) await Promise.all(batch.slice(i, i + 64).map((e) => bus.publish(e)));
  const pipelined = n / ((performance.now() - t) / 1000);
  await bus.close();
  return { sequential, pipelined };
}

export async function main() {
  const log = createLogger('bench', 'silent');
  const lifecycle = new Lifecycle(log);
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-webhooks-'));
  const env = `b${randomBase62(8).toLowerCase()}`;
  try {
    const bus = await NatsEventBus.connect({ url: NATS_URL, logger: log });
    lifecycle.defer('bus', () => bus.close());
    const graph = await startGraphService(
      { ...defaultGraphConfig(dir), port: 0, relayPollMs: 200, env },
      { bus, lifecycle, log },
    );
    await graph.writer.apply({ nodes: Array.from({ length: PERSONS }, (_, i) => person(i, `Person ${i}`)), edges: [] });
    await graph.drainOutbox();

    const secret = newSigningSecret();
    const hook = await receiver(secret);
    lifecycle.defer('receiver', () => hook.close());
    const store = LmdbEndpointStore.open(join(dir, 'endpoints'));
    const deliveries = LmdbDeliveryLog.open(join(dir, 'deliveries'));
    lifecycle.defer('webhook stores', async () => {
      await store.close();
      await deliveries.close();
    });
    const now = new Date().toISOString();
    const principal = {
      keyId: 'key_bench',
      environment: 1,
      plan: 2,
      pinnedVersion: '2026-11-01',
      rateLimitPerMinute: 600,
      entitlements: { contact: false, geography: true, states: [], tiers: [] },
    };
    await store.put({
      id: 'we_bench',
      url: hook.url,
      environment: 'test',
      secrets: [secret],
      enabled: true,
      keyId: 'key_bench',
      principal,
      events: ['person.updated'],
      states: [],
      description: '',
      disabledReason: '',
      createdAt: now,
      updatedAt: now,
    });
    const deliverer = new Deliverer({ log: deliveries, endpoints: store, logger: log, concurrencyPerEndpoint: 16 });
    deliverer.start();
    lifecycle.defer('deliverer', () => deliverer.stop());
    const dispatcher = new Dispatcher({ bus, env, subscriptions: store, deliverer, logger: log });
    await dispatcher.start();
    lifecycle.defer('dispatcher', () => dispatcher.stop());

    // Paced: RATE changes a second, each one person's new name, for SECONDS.
    const total = RATE * SECONDS;
    const pacedStart = Date.now();
    let k = 0;
    for (let i = 0; i < total; i++) {
      const due = pacedStart + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await graph.writer.apply({ nodes: [person(i % PERSONS, `Paced ${k++}`)], edges: [] });
    }
    await waitFor(() => hook.arrivals.size >= total, 30_000);
    const paced = { ...latencies(hook.arrivals, pacedStart), sent: total, rate: RATE, seconds: SECONDS };

    // Saturation: BURST changes written as fast as the writer takes them, 50 to a batch.
    const before = hook.arrivals.size;
    const burstStart = Date.now();
    for (let i = 0; i < BURST; i += 50) {
      await graph.writer.apply({
        nodes: Array.from({ length: Math.min(50, BURST - i) }, (_, j) => person((i + j) % PERSONS, `Burst ${i + j}`)),
        edges: [],
      });
    }
    const written = Date.now();
    await waitFor(() => hook.arrivals.size >= before + BURST, 120_000);
    const lastArrival = Math.max(
      ...[...hook.arrivals.values()].filter((a) => a.committed >= burstStart).map((a) => a.at),
    );
    const burst = {
      n: hook.arrivals.size - before,
      writesPerSecond: BURST / ((written - burstStart) / 1000),
      deliveriesPerSecond: (hook.arrivals.size - before) / ((lastArrival - burstStart) / 1000),
    };

    const raw = await rawPublish(env, BURST);
    const run = {
      config: { rate: RATE, seconds: SECONDS, burst: BURST, natsUrl: NATS_URL },
      paced,
      burst,
      raw,
      signatureFailures: hook.failures(),
      date: new Date().toISOString().slice(0, 10),
    };
    console.log(JSON.stringify(run, null, 2));
    writeWebhooksSection(fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url)), run);
  } finally {
    await lifecycle.stop('bench done');
    rmSync(dir, { recursive: true, force: true });
  }
}
