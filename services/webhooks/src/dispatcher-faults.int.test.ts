import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createLogger, makeEvent, NatsEventBus, probeNats, randomBase62, serviceAvailability, type CivicEvent } from '@civicgraph/kit';
import { describeWithService, FlakyProxy } from '@civicgraph/kit/testing';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { Deliverer } from './delivery/deliverer.js';
import { LmdbDeliveryLog } from './delivery/lmdb-delivery-log.js';
import { Dispatcher } from './dispatcher.js';
import { LmdbEndpointStore } from './endpoints/endpoint-store.js';
import { newSigningSecret } from './signing.js';

/**
 * The dispatcher's connection to NATS cut mid-stream (what a NATS restart looks like to it),
 * through a proxy in front of the real server, while a publisher keeps publishing: every
 * event reaches the receiver, and a receiver that dedupes on webhook-id sees each once.
 */

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));
const logger = createLogger('test', 'silent');

describeWithService('webhook dispatcher through a NATS outage', nats, () => {
  const secret = newSigningSecret();
  const seen: string[] = [];
  let receiver: Server;
  let proxy: FlakyProxy;
  let publisher: NatsEventBus;
  let dispatcherBus: NatsEventBus;
  let dir: string;
  let store: LmdbEndpointStore;
  let log: LmdbDeliveryLog;
  let deliverer: Deliverer;
  let dispatcher: Dispatcher;
  const env = `f${randomBase62(8).toLowerCase()}`;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
        seen.push((new Webhook(secret).verify(body, req.headers as Record<string, string>) as { id: string }).id);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    proxy = await FlakyProxy.start(new URL(natsUrl));
    publisher = await NatsEventBus.connect({ url: natsUrl, logger });
    dispatcherBus = await NatsEventBus.connect({ url: proxy.url, logger });
    dir = mkdtempSync(join(tmpdir(), 'civic-dispatch-faults-'));
    store = LmdbEndpointStore.open(join(dir, 'endpoints'));
    log = LmdbDeliveryLog.open(join(dir, 'deliveries'));
    const now = new Date().toISOString();
    await store.put({
      id: 'we_faults', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, environment: 'test', secrets: [secret], enabled: true,
      keyId: 'key_faults', principal: { keyId: 'key_faults', environment: Environment.ENVIRONMENT_TEST, plan: Plan.PLAN_BUILD, pinnedVersion: '2026-11-01', rateLimitPerMinute: 600, entitlements: { contact: false, geography: true, states: [], tiers: [] } },
      events: ['contest.created'], states: [], description: '', disabledReason: '', createdAt: now, updatedAt: now,
    });
    deliverer = new Deliverer({ log, endpoints: store, logger, pollMs: 20 });
    deliverer.start();
    dispatcher = new Dispatcher({ bus: dispatcherBus, env, subscriptions: store, deliverer, logger });
    await dispatcher.start();
  }, 30_000);
  afterAll(async () => {
    await dispatcher?.stop();
    await deliverer?.stop();
    await Promise.all([publisher?.close(), dispatcherBus?.close()]);
    await proxy?.stop();
    await Promise.all([store?.close(), log?.close()]);
    receiver?.closeAllConnections();
    receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const contest = (i: number): CivicEvent => makeEvent({
    env, kind: 'contest', verb: 'created', slugs: [`contest:f-${i}`], version: '1',
    node: { slug: `contest:f-${i}`, kind: 'contest', state: 'co', tier: 'state', rev: 1, data: {} },
  });

  it('delivers every event published before, during and after the outage, each once to a deduping receiver', async () => {
    const published: string[] = [];
    const publish = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const e = contest(i);
        await publisher.publish(e);
        published.push(e.id);
      }
    };
    await publish(0, 20);
    await expect.poll(() => new Set(seen).size, { timeout: 10_000, interval: 20 }).toBe(20);

    proxy.down();
    await expect.poll(() => dispatcherBus.connected(), { timeout: 10_000, interval: 20 }).toBe(false);
    await publish(20, 40);
    proxy.up();
    await expect.poll(() => dispatcherBus.connected(), { timeout: 15_000, interval: 50 }).toBe(true);
    await publish(40, 60);

    await expect.poll(() => new Set(seen).size, { timeout: 20_000, interval: 50 }).toBe(60);
    expect(new Set(seen)).toEqual(new Set(published));
    // At least once: an event may arrive twice, never with a different id.
    expect(seen.length).toBeGreaterThanOrEqual(60);
  }, 60_000);
});
