import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  createLogger,
  makeEvent,
  NatsEventBus,
  probeNats,
  randomBase62,
  serviceAvailability,
  type CivicEvent,
} from '@civicgraph/kit';
import { describeWithService, FlakyProxy, NatsServerProcess, scaled } from '@civicgraph/kit/testing';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { Deliverer } from './delivery/deliverer.js';
import { LmdbDeliveryLog } from './delivery/lmdb-delivery-log.js';
import { Dispatcher } from './dispatcher.js';
import { LmdbEndpointStore } from './endpoints/endpoint-store.js';
import { newSigningSecret } from './signing.js';

/**
 * The dispatcher through NATS going away mid-stream, with the real server: once with its
 * connection cut by a proxy (a network outage), once with a server of the test's own
 * stopped and started again on the same JetStream folder (a restart). Events are
 * published before, during and after; every one reaches the receiver, and a receiver that
 * dedupes on webhook-id sees each exactly once.
 */

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));
const natsBinary = await serviceAvailability("a nats-server binary of the test's own (NATS_SERVER_BIN)", async () =>
  NatsServerProcess.findBinary(),
);
const logger = createLogger('test', 'silent');

/** A receiver, an endpoint for it, and a dispatcher reading `dispatcherUrl`. */
class Rig {
  readonly seen: string[] = [];
  readonly published: string[] = [];
  readonly env = `f${randomBase62(8).toLowerCase()}`;
  private readonly secret = newSigningSecret();
  private readonly dir = mkdtempSync(join(tmpdir(), 'civic-dispatch-faults-'));
  private receiver!: Server;
  private store!: LmdbEndpointStore;
  private log!: LmdbDeliveryLog;
  private deliverer!: Deliverer;
  private dispatcher!: Dispatcher;
  publisher!: NatsEventBus;
  dispatcherBus!: NatsEventBus;

  async start(publisherUrl: string, dispatcherUrl: string): Promise<void> {
    this.receiver = createServer((req, res) => {
      let body = '';
      req
        .setEncoding('utf8')
        .on('data', (c) => (body += c))
        .on('end', () => {
          this.seen.push(
            (new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as { id: string }).id,
          );
          res.writeHead(200).end();
        });
    });
    await new Promise<void>((r) => this.receiver.listen(0, '127.0.0.1', r));
    this.publisher = await NatsEventBus.connect({ url: publisherUrl, logger });
    this.dispatcherBus = await NatsEventBus.connect({ url: dispatcherUrl, logger });
    this.store = LmdbEndpointStore.open(join(this.dir, 'endpoints'));
    this.log = LmdbDeliveryLog.open(join(this.dir, 'deliveries'));
    const now = new Date().toISOString();
    await this.store.put({
      id: 'we_faults',
      url: `http://127.0.0.1:${(this.receiver.address() as AddressInfo).port}/hook`,
      environment: 'test',
      secrets: [this.secret],
      enabled: true,
      keyId: 'key_faults',
      principal: {
        keyId: 'key_faults',
        environment: Environment.ENVIRONMENT_TEST,
        plan: Plan.PLAN_BUILD,
        pinnedVersion: '2026-11-01',
        rateLimitPerMinute: 600,
        entitlements: { contact: false, geography: true, states: [], tiers: [] },
      },
      events: ['contest.created'],
      states: [],
      description: '',
      disabledReason: '',
      createdAt: now,
      updatedAt: now,
    });
    this.deliverer = new Deliverer({ log: this.log, endpoints: this.store, logger, pollMs: 20 });
    this.deliverer.start();
    this.dispatcher = new Dispatcher({
      bus: this.dispatcherBus,
      env: this.env,
      subscriptions: this.store,
      deliverer: this.deliverer,
      logger,
    });
    await this.dispatcher.start();
  }

  /** Publishes contests `from`..`to`-1, each retried until JetStream stores it (for up to 20 s), as the graph's outbox relay does. */
  async publish(from: number, to: number): Promise<void> {
    for (let i = from; i < to; i++) {
      const e = this.contest(i);
      for (const deadline = Date.now() + scaled(20_000); ;) {
        try {
          await this.publisher.publish(e);
          break;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      this.published.push(e.id);
    }
  }

  async stop(): Promise<void> {
    await this.dispatcher?.stop();
    await this.deliverer?.stop();
    await Promise.all([this.publisher?.close(), this.dispatcherBus?.close()]);
    await Promise.all([this.store?.close(), this.log?.close()]);
    this.receiver?.closeAllConnections();
    this.receiver?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private contest(i: number): CivicEvent {
    return makeEvent({
      env: this.env,
      kind: 'contest',
      verb: 'created',
      slugs: [`contest:f-${i}`],
      version: '1',
      node: {
        slug: `contest:f-${i}`,
        kind: 'contest',
        state: 'co',
        tier: 'state',
        rev: 1,
        updatedAt: '2026-11-01T00:00:00.000Z',
        data: {},
      },
    });
  }
}

/** Every published event arrived, each under its own id; at least once, so a repeat is allowed, another id never. */
async function expectEachDelivered(rig: Rig, count: number): Promise<void> {
  await expect.poll(() => new Set(rig.seen).size, { timeout: scaled(20_000), interval: 50 }).toBe(count);
  expect(new Set(rig.seen)).toEqual(new Set(rig.published));
  expect(rig.published).toHaveLength(count);
}

describeWithService('webhook dispatcher through a NATS outage', nats, () => {
  const rig = new Rig();
  let proxy: FlakyProxy;

  beforeAll(async () => {
    proxy = await FlakyProxy.start(new URL(natsUrl));
    await rig.start(natsUrl, proxy.url);
  }, scaled(30_000));
  afterAll(async () => {
    await rig.stop();
    await proxy?.stop();
  });

  it(
    'delivers every event published before, during and after the outage, each once to a deduping receiver',
    async () => {
      await rig.publish(0, 20);
      await expect.poll(() => new Set(rig.seen).size, { timeout: scaled(10_000), interval: 20 }).toBe(20);

      proxy.down();
      await expect.poll(() => rig.dispatcherBus.connected(), { timeout: scaled(10_000), interval: 20 }).toBe(false);
      await rig.publish(20, 40);
      proxy.up();
      await expect.poll(() => rig.dispatcherBus.connected(), { timeout: scaled(15_000), interval: 50 }).toBe(true);
      await rig.publish(40, 60);

      await expectEachDelivered(rig, 60);
    },
    scaled(60_000),
  );
});

describeWithService('webhook dispatcher through a NATS server restart', natsBinary, () => {
  const rig = new Rig();
  const storeDir = mkdtempSync(join(tmpdir(), 'civic-nats-js-'));
  let server: NatsServerProcess;

  beforeAll(async () => {
    server = await NatsServerProcess.start(storeDir);
    await rig.start(server.url, server.url);
  }, scaled(30_000));
  afterAll(async () => {
    await rig.stop();
    await server?.stop();
    rmSync(storeDir, { recursive: true, force: true });
  });

  it(
    'delivers every event published before, during and after the restart, each once to a deduping receiver',
    async () => {
      // A backlog the dispatcher needs about a second to work through: the restart comes part-way.
      await rig.publish(0, 1000);
      await expect.poll(() => rig.seen.length, { timeout: scaled(10_000), interval: 5 }).toBeGreaterThanOrEqual(20);
      const stopped = server.stop();
      const during = stopped.then(() => rig.publish(1000, 1020));
      await stopped;
      await expect.poll(() => rig.dispatcherBus.connected(), { timeout: scaled(10_000), interval: 20 }).toBe(false);
      await server.restart();
      await during;
      await expect.poll(() => rig.dispatcherBus.connected(), { timeout: scaled(15_000), interval: 50 }).toBe(true);
      await rig.publish(1020, 1040);

      await expectEachDelivered(rig, 1040);
    },
    scaled(90_000),
  );
});
