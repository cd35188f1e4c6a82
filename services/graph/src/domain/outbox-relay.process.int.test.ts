import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { afterEach, beforeEach, expect, test } from 'vitest';
import { LmdbGraphStore } from '../store/lmdb/lmdb-graph-store.js';
import { OutboxRelay } from './outbox-relay.js';

/**
 * Writes and their events are not lost apart, with a real process dying: a child writes
 * through the GraphWriter into the embedded store and is killed with SIGKILL, either
 * before any relay ran or after publishing but before acknowledging. A relay started
 * afterwards (the restarted service) publishes what is pending, and a consumer on NATS
 * JetStream sees each event exactly once (the event id is the Nats-Msg-Id).
 */
const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${url}`, () => probeNats(url));
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const WAIT = { timeout: scaled(15_000), interval: 20 };
const log = pino({ level: 'silent' });

/** Runs the child to its own SIGKILL; returns the event ids it committed. */
function childDies(
  path: string,
  env: string,
  mode: 'before-publish' | 'before-ack',
): Promise<{ ids: string[]; published: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', join(FIXTURES, 'ts-register.mjs'), join(FIXTURES, 'relay-child.mjs'), path, env, mode, url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited (code ${code}, signal ${signal}):\n${err}`));
      const lines = out.trim().split('\n');
      resolve({ ids: JSON.parse(lines[0] ?? '[]') as string[], published: lines.includes('published') });
    });
  });
}

describeWithService('outbox relay after a process dies (SIGKILL)', nats, () => {
  let env: string;
  let dir: string;
  let consumer: NatsEventBus;
  let got: CivicEvent[];
  const toClose: { close(): Promise<void> }[] = [];

  beforeEach(async () => {
    env = `t${randomBase62(8).toLowerCase()}`;
    dir = await mkdtemp(join(tmpdir(), 'civic-relay-kill-'));
    got = [];
    consumer = await NatsEventBus.connect({ url, name: 'relay-kill-consumer' });
    await consumer.subscribe(`civic.${env}.>`, (e) => void got.push(e));
  });
  afterEach(async () => {
    for (const c of toClose.splice(0).reverse()) await c.close();
    await consumer.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The restarted service: the store reopened, a relay on its own NATS connection, drained. */
  async function restart(path: string): Promise<{ store: LmdbGraphStore; bus: NatsEventBus }> {
    const store = await LmdbGraphStore.open(path);
    const bus = await NatsEventBus.connect({ url, name: 'relay-kill-restarted' });
    toClose.push(store, bus);
    await new OutboxRelay({ store, bus, log }).drain();
    return { store, bus };
  }

  /** A last event, so anything delivered before it has arrived. */
  async function settle(bus: NatsEventBus): Promise<string[]> {
    const sentinel = makeEvent({ env, kind: 'party', verb: 'updated', slugs: ['party:sentinel'], version: '1' });
    await bus.publish(sentinel);
    await expect.poll(() => got.map((e) => e.id), WAIT).toContain(sentinel.id);
    return got.filter((e) => e.id !== sentinel.id).map((e) => e.id);
  }

  test('killed between the write and the publish: the restarted relay publishes it, once', async () => {
    const path = join(dir, 'graph');
    const { ids } = await childDies(path, env, 'before-publish');
    expect(ids).toHaveLength(1);
    expect(got).toEqual([]);
    const { store, bus } = await restart(path);
    expect(await settle(bus)).toEqual(ids);
    expect(await store.pendingEvents(10)).toEqual([]);
    expect((await store.getNode(`party:${env}-before-publish`))?.kind).toBe('party');
  });

  test('killed after publishing but before acknowledging: published again, seen once', async () => {
    const path = join(dir, 'graph');
    const { ids, published } = await childDies(path, env, 'before-ack');
    expect(published).toBe(true);
    const { store, bus } = await restart(path);
    expect(await settle(bus)).toEqual(ids);
    expect(await store.pendingEvents(10)).toEqual([]);
  });
});
