import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  makeEvent,
  NatsEventBus,
  probeNats,
  randomBase62,
  serviceAvailability,
  type CivicEvent,
} from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { GraphStore } from '../store/graph-store.js';
import { LmdbGraphStore } from '../store/lmdb/lmdb-graph-store.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { OutboxRelay } from './outbox-relay.js';
import { batch, party, person } from './test-drafts.js';
import { GraphWriter } from './writer.js';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${url}`, () => probeNats(url));
const WAIT = { timeout: scaled(10_000), interval: 20 };
const log = pino({ level: 'silent' });

describeWithService('OutboxRelay on NATS JetStream', nats, () => {
  let env: string;
  let consumerBus: NatsEventBus;
  let got: CivicEvent[];
  const toClose: { close(): Promise<void> }[] = [];

  beforeEach(async () => {
    // Each test its own env word: runs sharing the server never see each other's events.
    env = `t${randomBase62(8).toLowerCase()}`;
    got = [];
    consumerBus = await NatsEventBus.connect({ url, name: 'graph-relay-consumer' });
    await consumerBus.subscribe(`civic.${env}.>`, (e) => void got.push(e));
  });
  afterEach(async () => {
    for (const c of toClose.splice(0).reverse()) await c.close();
    await consumerBus.close();
  });

  /** A relay process: its own NATS connection, as a restarted service would have. */
  async function relayOn(store: GraphStore): Promise<{ relay: OutboxRelay; bus: NatsEventBus }> {
    const bus = await NatsEventBus.connect({ url, name: 'graph-relay' });
    toClose.push(bus);
    return { relay: new OutboxRelay({ store, bus, log, pollMs: 20 }), bus };
  }

  /** Publishes a last event and waits for it: delivery is in order, so anything extra came first. */
  async function settle(bus: NatsEventBus): Promise<string[]> {
    const sentinel = makeEvent({ env, kind: 'party', verb: 'updated', slugs: ['party:sentinel'], version: '1' });
    await bus.publish(sentinel);
    await expect.poll(() => got.map((e) => e.id), WAIT).toContain(sentinel.id);
    return got.filter((e) => e.id !== sentinel.id).map((e) => e.id);
  }

  test('a change committed while no relay ran (stopped between write and publish) is published once a relay starts, once', async () => {
    const store = new MemoryGraphStore();
    await new GraphWriter({ store, env }).apply(batch([person('jane-doe', 'Jane Doe')]));
    const [committed] = await store.pendingEvents(10);

    const { relay, bus } = await relayOn(store);
    relay.start();
    await expect.poll(() => got.map((e) => e.id), WAIT).toEqual([committed!.event.id]);
    // As committed, numbered with its outbox seq: its position in the change feed.
    expect(got[0]).toEqual({ ...committed!.event, seq: String(committed!.seq) });
    await relay.stop();
    expect(await relay.drain()).toBe(0);
    expect(await settle(bus)).toEqual([committed!.event.id]);
    expect(await store.pendingEvents(10)).toEqual([]);
  });

  test('a crash after publish but before acknowledgement: a fresh relay publishes again and the consumer still sees the event once', async () => {
    const store = new MemoryGraphStore();
    await new GraphWriter({ store, env }).apply(batch([person('jane-doe', 'Jane Doe'), party('dem')]));
    const committed = await store.pendingEvents(10);
    expect(committed).toHaveLength(2);

    // The first relay process publishes and dies before it acknowledges.
    const crashed = await NatsEventBus.connect({ url, name: 'graph-relay-crashed' });
    for (const e of committed) await crashed.publish(e.event);
    await crashed.close();
    expect(await store.pendingEvents(10)).toHaveLength(2);

    const { relay, bus } = await relayOn(store);
    expect(await relay.drain()).toBe(2);
    expect(await store.pendingEvents(10)).toEqual([]);
    expect(await settle(bus)).toEqual(committed.map((e) => e.event.id));
  });

  describe('with the embedded (LMDB) store, across a restart', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'civic-relay-'));
    });
    afterEach(async () => {
      // Stores close before their directory goes (inner hooks run before the outer ones).
      for (const c of toClose.splice(0).reverse()) await c.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Opens the store as a (re)started process would: a fresh instance reading the directory. */
    async function openStore(): Promise<LmdbGraphStore> {
      const store = await LmdbGraphStore.open(join(dir, 'graph'));
      toClose.push(store);
      return store;
    }

    test('stopped between write and publish: after a restart the relay publishes the event, once', async () => {
      const before = await openStore();
      await new GraphWriter({ store: before, env }).apply(batch([person('jane-doe', 'Jane Doe')]));
      const [committed] = await before.pendingEvents(10);
      // The process stops here: the write was acknowledged, no relay ever ran.
      await before.close();

      const restarted = await openStore();
      const { relay, bus } = await relayOn(restarted);
      relay.start();
      await expect.poll(() => got.map((e) => e.id), WAIT).toEqual([committed!.event.id]);
      await relay.stop();
      await restarted.close();

      // Another restart finds nothing left to publish: the acknowledgement was durable too.
      const again = await openStore();
      expect(await again.pendingEvents(10)).toEqual([]);
      expect(await (await relayOn(again)).relay.drain()).toBe(0);
      expect(await settle(bus)).toEqual([committed!.event.id]);
    });

    test('stopped after publish but before acknowledgement: after a restart the consumer still sees the event once', async () => {
      const before = await openStore();
      await new GraphWriter({ store: before, env }).apply(batch([person('jane-doe', 'Jane Doe')]));
      const [committed] = await before.pendingEvents(10);
      const dying = await NatsEventBus.connect({ url, name: 'graph-relay-dying' });
      await dying.publish(committed!.event);
      await dying.close();
      await before.close();

      const restarted = await openStore();
      const { relay, bus } = await relayOn(restarted);
      expect(await relay.drain()).toBe(1);
      expect(await restarted.pendingEvents(10)).toEqual([]);
      expect(await settle(bus)).toEqual([committed!.event.id]);
    });
  });
});
