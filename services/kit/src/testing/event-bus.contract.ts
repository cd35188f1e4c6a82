import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeEvent, type CivicEvent, type EventVerb } from '../bus/catalogue.js';
import { randomBase62 } from '../base62.js';
import { BusClosedError, type EventBus, type EventHandler, type Subscription } from '../bus/event-bus.js';
import { scaled } from './time-scale.js';

/** Small, so redelivery tests stay quick; adapters default to 1000 ms. */
const RETRY_DELAY_MS = 50;
/** NATS round trips are slower than memory; a generous ceiling, never a sleep. */
const WAIT = { timeout: scaled(10_000), interval: 10 };

/**
 * The EventBus contract, run against every adapter. Each test uses its own env word in
 * subjects (`civic.<env>.…`), so runs sharing one NATS server never see each other.
 * "Not delivered" is shown by publishing a later sentinel on the same subscription and
 * waiting for it: delivery is in order, so anything unwanted would have come first.
 */
export function describeEventBusContract(name: string, makeBus: () => Promise<EventBus>): void {
  describe(`EventBus contract: ${name}`, () => {
    let bus: EventBus;
    let env: string;

    beforeEach(async () => {
      bus = await makeBus();
      env = `t${randomBase62(8).toLowerCase()}`;
    });
    afterEach(async () => {
      await bus.close();
    });

    const event = (verb: EventVerb<'region'> = 'updated', envWord = env): CivicEvent =>
      makeEvent({ env: envWord, kind: 'region', verb, slugs: ['us-ca'], changedFields: ['name'], version: 'v1' });
    const subscribe = (filter: string, handler: EventHandler): Promise<Subscription> =>
      bus.subscribe(filter, handler, { retryDelayMs: RETRY_DELAY_MS });
    const publishAll = async (events: CivicEvent[]): Promise<void> => {
      for (const e of events) await bus.publish(e);
    };

    test('a matching subscriber receives the published event with every envelope field intact', async () => {
      const got = collector();
      await subscribe(`civic.${env}.region.updated`, got.handler);
      const sent = { ...event(), slugs: ['us-ca', 'us-ca-06037'], changedFields: ['name', 'geometry'] };
      await bus.publish(sent);
      await expect.poll(() => got.events, WAIT).toHaveLength(1);
      expect(got.events[0]).toEqual(sent);
    });

    test('a typed object and typed change values arrive as they were published, objects and not text', async () => {
      const got = collector();
      await subscribe(`civic.${env}.>`, got.handler);
      const node = {
        slug: 'candidacy:a',
        kind: 'candidacy' as const,
        state: 'co',
        tier: 'state',
        rev: 4,
        updatedAt: '2026-11-01T00:00:00.000Z',
        data: { fields: { filingStatus: { value: 'QUALIFIED', claims: [{ at: null, weight: 0.5 }] } } },
      };
      const changes = [
        { field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' },
        { field: 'campaignEmails', before: null, after: ['a@b.test'] },
      ];
      const officeholder = {
        state: 'co',
        tier: 'state',
        person: { slug: 'person:p', name: 'P' },
        office: { slug: 'office:o', name: 'Governor', level: 'state', region: 'region:co' },
        term: 't',
        start: '2019-01-08',
        contact: { contactEmails: ['gov@b.test'] },
      };
      const sent = [
        makeEvent({
          env,
          kind: 'candidacy',
          verb: 'updated',
          slugs: ['candidacy:a'],
          changedFields: changes.map((c) => c.field),
          version: '4',
          changes,
          node,
        }),
        makeEvent({
          env,
          kind: 'officeholder',
          verb: 'changed',
          slugs: ['office:o', 'person:p'],
          changedFields: ['start'],
          version: '1',
          changes: [{ field: 'start', before: null, after: '2019-01-08' }],
          officeholder,
        }),
      ];
      await publishAll(sent);
      await expect.poll(() => got.events, WAIT).toHaveLength(2);
      expect(got.events).toEqual(sent);
      expect(got.events[0]!.node?.data).toEqual(node.data);
      expect(got.events[0]!.changes[1]).toEqual({ field: 'campaignEmails', before: null, after: ['a@b.test'] });
      expect(got.events[1]!.officeholder?.contact).toEqual({ contactEmails: ['gov@b.test'] });
    });

    test('a durable subscription gets, in order, what was published while none of its name was open', async () => {
      const name = `durable-${env}`;
      const first = collector();
      const sub = await bus.subscribe(`civic.${env}.region.*`, first.handler, {
        retryDelayMs: RETRY_DELAY_MS,
        durable: name,
      });
      const before = event();
      await bus.publish(before);
      await expect.poll(() => first.ids(), WAIT).toEqual([before.id]);
      await sub.unsubscribe();
      const missed = [event('created'), event('updated')];
      await publishAll(missed);
      const second = collector();
      await bus.subscribe(`civic.${env}.region.*`, second.handler, { retryDelayMs: RETRY_DELAY_MS, durable: name });
      const after = event('deleted');
      await bus.publish(after);
      await expect.poll(() => second.ids(), WAIT).toContain(after.id);
      expect(second.ids()).toEqual([...missed.map((e) => e.id), after.id]);
    });

    test('a `*` filter matches exactly one token in its place', async () => {
      const got = collector();
      await subscribe(`civic.${env}.*.created`, got.handler);
      const wanted = event('created');
      const sentinel = event('created');
      await publishAll([wanted, event('updated'), sentinel]);
      await expect.poll(() => got.ids(), WAIT).toContain(sentinel.id);
      expect(got.ids()).toEqual([wanted.id, sentinel.id]);
    });

    test('a `>` filter matches every remaining token', async () => {
      const got = collector();
      await subscribe(`civic.${env}.>`, got.handler);
      const sent = [event('created'), event('updated'), event('deleted')];
      await publishAll(sent);
      await expect.poll(() => got.ids(), WAIT).toEqual(sent.map((e) => e.id));
    });

    test('events on subjects the filter does not match are not delivered', async () => {
      const got = collector();
      await subscribe(`civic.${env}.region.created`, got.handler);
      const sentinel = event('created');
      const otherEnv = `u${randomBase62(8).toLowerCase()}`;
      await publishAll([event('updated'), event('created', otherEnv), sentinel]);
      await expect.poll(() => got.ids(), WAIT).toContain(sentinel.id);
      expect(got.ids()).toEqual([sentinel.id]);
    });

    test('fifty events arrive in the order they were published', async () => {
      const got = collector();
      await subscribe(`civic.${env}.>`, got.handler);
      const sent = Array.from({ length: 50 }, () => event());
      await publishAll(sent);
      await expect.poll(() => got.events.length, WAIT).toBe(50);
      expect(got.ids()).toEqual(sent.map((e) => e.id));
    });

    test('an event id published twice is accepted twice and delivered once', async () => {
      const got = collector();
      await subscribe(`civic.${env}.>`, got.handler);
      const once = event();
      const sentinel = event();
      await publishAll([once, once, sentinel]);
      await expect.poll(() => got.ids(), WAIT).toContain(sentinel.id);
      expect(got.ids()).toEqual([once.id, sentinel.id]);
    });

    test('an event whose handler throws is delivered again before any later event', async () => {
      const attempts: string[] = [];
      const first = event('created');
      const second = event('updated');
      await subscribe(`civic.${env}.>`, (e) => {
        attempts.push(e.id);
        if (attempts.length === 1) throw new Error('transient handler failure');
      });
      await publishAll([first, second]);
      await expect.poll(() => attempts, WAIT).toHaveLength(3);
      expect(attempts).toEqual([first.id, first.id, second.id]);
    });

    test('after unsubscribe resolves, the subscriber receives nothing more', async () => {
      const gone = collector();
      const stays = collector();
      const sub = await subscribe(`civic.${env}.>`, gone.handler);
      await subscribe(`civic.${env}.>`, stays.handler);
      const before = event();
      await bus.publish(before);
      await expect.poll(() => gone.ids(), WAIT).toEqual([before.id]);
      await sub.unsubscribe();
      const after = event();
      await bus.publish(after);
      await expect.poll(() => stays.ids(), WAIT).toEqual([before.id, after.id]);
      expect(gone.ids()).toEqual([before.id]);
    });

    test('unsubscribe waits for the handler in flight to finish', async () => {
      const gate = deferred();
      let started = false;
      let finished = false;
      const sub = await subscribe(`civic.${env}.>`, async () => {
        started = true;
        await gate.promise;
        finished = true;
      });
      await bus.publish(event());
      await expect.poll(() => started, WAIT).toBe(true);
      // Opened on a later macrotask, so an unsubscribe that did not wait would resolve first.
      setTimeout(gate.resolve, 20);
      await sub.unsubscribe();
      expect(finished).toBe(true);
    });

    test('a handler can unsubscribe its own subscription without waiting on itself', async () => {
      let unsubscribed = false;
      const sub: Subscription = await subscribe(`civic.${env}.>`, async () => {
        await sub.unsubscribe();
        unsubscribed = true;
      });
      await bus.publish(event());
      await expect.poll(() => unsubscribed, WAIT).toBe(true);
    });

    test('every subscriber whose filter matches receives the event', async () => {
      const a = collector();
      const b = collector();
      await subscribe(`civic.${env}.region.updated`, a.handler);
      await subscribe(`civic.${env}.>`, b.handler);
      const sent = event();
      await bus.publish(sent);
      await expect.poll(() => a.ids(), WAIT).toEqual([sent.id]);
      await expect.poll(() => b.ids(), WAIT).toEqual([sent.id]);
    });

    test('events published before subscribe resolved are not delivered', async () => {
      const earlier = event();
      await bus.publish(earlier);
      const got = collector();
      await subscribe(`civic.${env}.>`, got.handler);
      const later = event();
      await bus.publish(later);
      await expect.poll(() => got.ids(), WAIT).toContain(later.id);
      expect(got.ids()).toEqual([later.id]);
    });

    test('close waits for handlers in flight, then publish and subscribe reject', async () => {
      const gate = deferred();
      let started = false;
      let finished = false;
      await subscribe(`civic.${env}.>`, async () => {
        started = true;
        await gate.promise;
        finished = true;
      });
      await bus.publish(event());
      await expect.poll(() => started, WAIT).toBe(true);
      setTimeout(gate.resolve, 20);
      await bus.close();
      expect(finished).toBe(true);
      await expect(bus.publish(event())).rejects.toBeInstanceOf(BusClosedError);
      await expect(subscribe(`civic.${env}.>`, () => {})).rejects.toBeInstanceOf(BusClosedError);
    });

    test('publishAll accepts events in order and stops at the first it refuses, accepting none after it', async () => {
      const got = collector();
      await subscribe(`civic.${env}.>`, got.handler);
      const good = [event('created'), event('updated')];
      const bad = { ...event(), subject: 'not-a-civic-subject' };
      const outcome = await bus.publishAll([...good, bad, event('deleted')]);
      expect(outcome.published).toBe(2);
      expect(String(outcome.error)).toMatch(/subject/);
      const sentinel = event();
      expect(await bus.publishAll([sentinel])).toEqual({ published: 1 });
      await expect.poll(() => got.ids(), WAIT).toContain(sentinel.id);
      expect(got.ids()).toEqual([...good.map((e) => e.id), sentinel.id]);
    });

    test('publishing an event that is not a valid envelope is rejected', async () => {
      const bad = { ...event(), subject: 'not-a-civic-subject' };
      await expect(bus.publish(bad)).rejects.toThrow(/subject/);
    });
  });
}

/** Records delivered events in arrival order. */
function collector(): { events: CivicEvent[]; handler: EventHandler; ids: () => string[] } {
  const events: CivicEvent[] = [];
  return { events, handler: (e) => void events.push(e), ids: () => events.map((e) => e.id) };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
