import { describe, expect, it } from 'vitest';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { rescoreCandidacies } from './rescore.js';
import { batch, candidacy, candidacyWorld, provenance, T0 } from './test-drafts.js';
import { GraphWriter } from './writer.js';

const days = (n: number) => new Date(T0.getTime() + n * 86_400_000);

async function world() {
  const store = new MemoryGraphStore();
  const writer = new GraphWriter({ store, env: 'test', now: () => T0 });
  await writer.apply(
    batch([...candidacyWorld(), provenance('fec', 'official-filing'), candidacy('fec', { filingStatus: 'DECLARED' })]),
  );
  await store.ackEvents((await store.pendingEvents(1000)).map((e) => e.event.id));
  return store;
}

const stored = async (store: MemoryGraphStore) =>
  (await store.getNode<'candidacy'>('candidacy:co-cd-1-2026-jane-doe'))!;

describe('re-scoring stored candidacies as their sources age', () => {
  it('writes a candidacy whose confidence has decayed, with a candidacy.updated event, and nothing on a second pass', async () => {
    const store = await world();
    const before = await stored(store);
    const outcome = await rescoreCandidacies({ store, env: 'test', now: days(365) });
    expect(outcome).toEqual({ read: 1, updated: 1, skipped: 0 });
    const after = await stored(store);
    // A year is one half-life: each field's confidence halves.
    expect(after.data.fields.name.confidence).toBeCloseTo(before.data.fields.name.confidence / 2, 3);
    expect(after.data.confidence).toBeLessThan(before.data.confidence);
    expect(after.data.fields.name.value).toBe(before.data.fields.name.value);
    const events = (await store.pendingEvents(10)).map((e) => e.event);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subject: 'civic.test.candidacy.updated',
      type: 'candidacy.updated',
      slugs: ['candidacy:co-cd-1-2026-jane-doe'],
    });
    expect(events[0]!.changedFields).toEqual(['confidence']);
    expect(await rescoreCandidacies({ store, env: 'test', now: days(365) })).toEqual({
      read: 1,
      updated: 0,
      skipped: 0,
    });
  });

  it('leaves a change below the threshold for a later pass', async () => {
    const store = await world();
    expect(await rescoreCandidacies({ store, env: 'test', now: days(1) })).toMatchObject({ updated: 0 });
    expect(await rescoreCandidacies({ store, env: 'test', now: days(1), minDelta: 0 })).toMatchObject({ updated: 1 });
  });
});
