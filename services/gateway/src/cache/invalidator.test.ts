import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { createLogger, makeEvent, MemoryEventBus } from '@civicgraph/kit';
import { startResponseInvalidator } from './invalidator.js';
import { SlugCache } from './slug-cache.js';
import { BallotMemo } from '../upstream/ballot-memo.js';

const PRINCIPAL: Principal = {
  keyId: 'key_a',
  environment: 1,
  plan: 2,
  pinnedVersion: '',
  rateLimitPerMinute: 600,
  entitlements: { contact: false, geography: true, states: [], tiers: [] },
};
const BALLOT = { regions: ['region:co'], regionLevels: ['state'], date: '2028-11-07', minConfidence: 0 };

/** The response invalidator on the in-process bus, dropping from a real SlugCache. */
describe('startResponseInvalidator', () => {
  let bus: MemoryEventBus;
  beforeEach(() => void (bus = new MemoryEventBus()));
  afterEach(() => bus.close());

  let memo: BallotMemo;
  beforeEach(async () => {
    memo = new BallotMemo();
    await memo.answer(PRINCIPAL, BALLOT, () => Promise.resolve({ contests: [], unresolved: [] }));
  });

  async function cacheOnBus() {
    const cache = new SlugCache<string>(10);
    cache.set('contest', 'C', ['contest:c', 'candidacy:a', 'provenance:p'], cache.mark());
    cache.set('other-candidacy', 'B', ['candidacy:b', 'provenance:p'], cache.mark());
    cache.set('unrelated', 'U', ['contest:d'], cache.mark());
    await startResponseInvalidator(bus, 'test', cache, memo, createLogger('test', 'silent'));
    return cache;
  }
  const kept = (cache: SlugCache<string>) =>
    ['contest', 'other-candidacy', 'unrelated'].filter((k) => cache.get(k) !== undefined);

  it('drops the answers naming the changed node and the contest at the other end of its edge, not those citing the same provenance', async () => {
    const cache = await cacheOnBus();
    await bus.publish(
      makeEvent({
        env: 'test',
        kind: 'candidacy',
        verb: 'updated',
        slugs: ['candidacy:a', 'provenance:p', 'contest:c'],
        changedFields: ['SUPPORTED_BY'],
        version: '2',
      }),
    );
    expect(kept(cache)).toEqual(['other-candidacy', 'unrelated']);
  });

  it('drops every answer naming a provenance record when the record itself changes', async () => {
    const cache = await cacheOnBus();
    await bus.publish(
      makeEvent({
        env: 'test',
        kind: 'provenance',
        verb: 'updated',
        slugs: ['provenance:p'],
        changedFields: ['url'],
        version: '2',
      }),
    );
    expect(kept(cache)).toEqual(['unrelated']);
  });

  it('drops everything when a node is created, since it can enter any list', async () => {
    const cache = await cacheOnBus();
    await bus.publish(
      makeEvent({ env: 'test', kind: 'candidacy', verb: 'created', slugs: ['candidacy:z', 'contest:d'], version: '1' }),
    );
    expect(kept(cache)).toEqual([]);
  });

  it("drops everything when an office gains or loses a holder, since a term can enter any region's list", async () => {
    const cache = await cacheOnBus();
    await bus.publish(
      makeEvent({
        env: 'test',
        kind: 'officeholder',
        verb: 'changed',
        slugs: ['office:x', 'person:y'],
        changedFields: ['end'],
        version: '1',
      }),
    );
    expect(kept(cache)).toEqual([]);
  });

  it('empties the ballot memo on every data-change event, even one that drops no answer', async () => {
    const cache = await cacheOnBus();
    await bus.publish(
      makeEvent({
        env: 'test',
        kind: 'contest',
        verb: 'updated',
        slugs: ['contest:elsewhere'],
        changedFields: ['date'],
        version: '2',
      }),
    );
    expect(kept(cache)).toEqual(['contest', 'other-candidacy', 'unrelated']);
    expect(memo.size).toBe(0);
  });

  it('keeps the ballot memo on events that are not data changes (a key revoked)', async () => {
    await cacheOnBus();
    await bus.publish(makeEvent({ env: 'test', kind: 'key', verb: 'revoked', slugs: ['key_a'], version: '1' }));
    expect(memo.size).toBe(1);
  });
});
