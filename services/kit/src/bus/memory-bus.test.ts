import { describe, expect, test } from 'vitest';
import { makeEvent, type CivicEvent } from './catalogue.js';
import { describeEventBusContract } from '../testing/event-bus.contract.js';
import { MemoryEventBus } from './memory-bus.js';

describeEventBusContract('memory', async () => new MemoryEventBus());

const event = (): CivicEvent =>
  makeEvent({ env: 'memtest', kind: 'region', verb: 'updated', slugs: ['us-ca'], version: 'v1' });

describe('MemoryEventBus', () => {
  test('never calls a handler before publish has returned', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    await bus.subscribe('civic.memtest.>', (e) => void got.push(e.id));
    const sent = event();
    const publishing = bus.publish(sent);
    expect(got).toEqual([]);
    await publishing;
    await expect.poll(() => got).toEqual([sent.id]);
    await bus.close();
  });

  test('forgets the oldest ids once it remembers dedupeMaxIds of them', async () => {
    const bus = new MemoryEventBus({ dedupeMaxIds: 2 });
    const got: string[] = [];
    await bus.subscribe('civic.memtest.>', (e) => void got.push(e.id));
    const [a, b, c] = [event(), event(), event()];
    for (const e of [a, b, c, a]) await bus.publish(e);
    await expect.poll(() => got).toEqual([a.id, b.id, c.id, a.id]);
    await bus.close();
  });

  test('delivers an id again once the de-duplication window has passed', async () => {
    let now = 0;
    const bus = new MemoryEventBus({ dedupeWindowMs: 1000, now: () => now });
    const got: string[] = [];
    await bus.subscribe('civic.memtest.>', (e) => void got.push(e.id));
    const a = event();
    await bus.publish(a);
    now = 999;
    await bus.publish(a);
    now = 1000;
    await bus.publish(a);
    await expect.poll(() => got).toEqual([a.id, a.id]);
    await bus.close();
  });

  test('gives each subscriber its own copy of the event', async () => {
    const bus = new MemoryEventBus();
    const seen: CivicEvent[] = [];
    await bus.subscribe('civic.memtest.>', (e) => {
      e.slugs.push('mutated');
      seen.push(e);
    });
    await bus.subscribe('civic.memtest.>', (e) => void seen.push(e));
    const sent = event();
    await bus.publish(sent);
    await expect.poll(() => seen).toHaveLength(2);
    expect(sent.slugs).toEqual(['us-ca']);
    expect(seen[1]!.slugs).toEqual(['us-ca']);
    await bus.close();
  });
});
