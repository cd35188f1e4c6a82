import { Writable } from 'node:stream';
import {
  MemoryEventBus,
  makeEvent,
  publishEach,
  type CivicEvent,
  type EventBus,
  type EventHandler,
  type PublishOutcome,
  type Subscription,
} from '@civicgraph/kit';
import { pino, type Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { OutboxRelay } from './outbox-relay.js';

const event = (slug: string): CivicEvent =>
  makeEvent({ env: 'relaytest', kind: 'person', verb: 'updated', slugs: [slug], version: '1' });

/** Commits an event with no node change: the outbox is what is under test. */
async function commitEvents(store: MemoryGraphStore, events: CivicEvent[]): Promise<void> {
  await store.commit({ put: [], remove: [], link: [], unlink: [], events });
}

function capturingLog(): { log: Logger; lines: () => string } {
  const out: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => done(void out.push(String(chunk))) });
  return { log: pino({ level: 'debug' }, sink), lines: () => out.join('') };
}

/** A real memory bus behind a switch: while `down`, publish fails as an unreachable bus would. */
class SwitchedBus implements EventBus {
  down = false;
  publishes = 0;
  constructor(readonly inner: EventBus) {}
  async publish(e: CivicEvent): Promise<void> {
    if (this.down) throw new Error('bus unreachable');
    this.publishes++;
    return this.inner.publish(e);
  }
  publishAll(events: readonly CivicEvent[]): Promise<PublishOutcome> {
    return publishEach(this, events);
  }
  subscribe(filter: string, handler: EventHandler): Promise<Subscription> {
    return this.inner.subscribe(filter, handler);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  connected(): boolean {
    return !this.down;
  }
}

let store: MemoryGraphStore;
// No de-duplication window: a double publish would reach the subscriber twice.
let bus: MemoryEventBus;
let got: string[];
let logged: ReturnType<typeof capturingLog>;

beforeEach(async () => {
  store = new MemoryGraphStore();
  bus = new MemoryEventBus({ dedupeWindowMs: 0 });
  got = [];
  await bus.subscribe('civic.relaytest.>', (e) => void got.push(e.slugs[0]!));
  logged = capturingLog();
});
afterEach(async () => {
  vi.useRealTimers();
  await bus.close();
});

describe('OutboxRelay.drain', () => {
  test('publishes every pending event in commit order, acknowledges them, and says how many', async () => {
    await commitEvents(store, [event('person:a'), event('person:b')]);
    await commitEvents(store, [event('person:c')]);
    const relay = new OutboxRelay({ store, bus, log: logged.log, pageSize: 2 });
    expect(await relay.drain()).toBe(3);
    await expect.poll(() => got).toEqual(['person:a', 'person:b', 'person:c']);
    expect(await store.pendingEvents(10)).toEqual([]);
  });

  test('with nothing pending publishes nothing', async () => {
    const relay = new OutboxRelay({ store, bus, log: logged.log });
    expect(await relay.drain()).toBe(0);
  });

  test('stops at the first event the bus refuses: nothing after it is published, it stays pending, the failure is logged', async () => {
    const a = event('person:a');
    const poison = { ...event('person:b'), subject: 'not a civic subject' };
    const c = event('person:c');
    await commitEvents(store, [a, poison, c]);
    const relay = new OutboxRelay({ store, bus, log: logged.log });
    expect(await relay.drain()).toBe(1);
    expect((await store.pendingEvents(10)).map((e) => e.event.id)).toEqual([poison.id, c.id]);
    await expect.poll(() => got).toEqual(['person:a']);
    expect(logged.lines()).toContain('outbox publish failed; retrying on the next poll');
    expect(logged.lines()).toContain(poison.id);
  });

  test('two drains at once publish each event once', async () => {
    await commitEvents(
      store,
      Array.from({ length: 30 }, (_, i) => event(`person:p${i}`)),
    );
    const relay = new OutboxRelay({ store, bus, log: logged.log, pageSize: 7 });
    const [x, y] = await Promise.all([relay.drain(), relay.drain()]);
    expect(x + y).toBe(30);
    await expect.poll(() => got.length).toBe(30);
    expect(new Set(got).size).toBe(30);
  });
});

describe('OutboxRelay polling', () => {
  test('once started, publishes events committed later without being asked', async () => {
    const relay = new OutboxRelay({ store, bus, log: logged.log, pollMs: 5 });
    relay.start();
    await commitEvents(store, [event('person:late')]);
    await expect.poll(() => got).toEqual(['person:late']);
    await relay.stop();
  });

  test('retries on the next poll after the bus was down, in order, once each', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const switched = new SwitchedBus(bus);
    switched.down = true;
    const relay = new OutboxRelay({ store, bus: switched, log: logged.log, pollMs: 100 });
    await commitEvents(store, [event('person:a'), event('person:b')]);
    relay.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(got).toEqual([]);
    expect(await store.pendingEvents(10)).toHaveLength(2);
    switched.down = false;
    await vi.advanceTimersByTimeAsync(100);
    await expect.poll(() => got).toEqual(['person:a', 'person:b']);
    expect(switched.publishes).toBe(2);
    await relay.stop();
  });

  test('after stop, no more polls run', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const relay = new OutboxRelay({ store, bus, log: logged.log, pollMs: 100 });
    relay.start();
    await relay.stop();
    await commitEvents(store, [event('person:after-stop')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await store.pendingEvents(10)).toHaveLength(1);
    expect(got).toEqual([]);
  });

  test('a store failure during a poll is logged and polling goes on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let failing = true;
    const flaky = Object.create(store) as MemoryGraphStore;
    flaky.pendingEvents = (limit: number) =>
      failing ? Promise.reject(new Error('disk on fire')) : store.pendingEvents(limit);
    const relay = new OutboxRelay({ store: flaky, bus, log: logged.log, pollMs: 100 });
    await commitEvents(store, [event('person:a')]);
    relay.start();
    await vi.advanceTimersByTimeAsync(150);
    expect(logged.lines()).toContain('disk on fire');
    failing = false;
    await vi.advanceTimersByTimeAsync(100);
    await expect.poll(() => got).toEqual(['person:a']);
    await relay.stop();
  });
});
