import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, eventObjectView, LocalStreamBus, makeEvent, type CivicEvent } from '@civicgraph/kit';
import { afterEach, describe, expect, test } from 'vitest';
import { LmdbGraphStore } from '../store/lmdb/lmdb-graph-store.js';
import { OutboxRelay } from './outbox-relay.js';
import { scaled } from '@civicgraph/kit/testing';

const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'civic-outbox-legacy-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NODE = {
  slug: 'candidacy:a',
  kind: 'candidacy',
  state: 'co',
  tier: 'state',
  rev: 3,
  updatedAt: '2026-11-01T00:00:00.000Z',
  data: { fields: { filingStatus: { value: 'QUALIFIED' } } },
};

/** An event as a release before the typed envelope committed it to the outbox: its node and change values as JSON text. */
function legacyEvent(): Record<string, unknown> {
  const e = makeEvent({
    env: 'legacytest',
    kind: 'candidacy',
    verb: 'updated',
    slugs: ['candidacy:a'],
    changedFields: ['filingStatus'],
    version: '3',
  });
  const { node: _node, officeholder: _officeholder, ...rest } = e;
  return {
    ...rest,
    changes: [{ field: 'filingStatus', beforeJson: '"FILED"', afterJson: '"QUALIFIED"' }],
    nodeJson: JSON.stringify(NODE),
  };
}

describe('an outbox written before the typed envelope', () => {
  test('is relayed after an upgrade as typed events: nothing lost, nothing left pending', async () => {
    const storePath = freshDir();
    const legacy = legacyEvent();
    const before = await LmdbGraphStore.open(storePath);
    await before.commit({ put: [], remove: [], link: [], unlink: [], events: [legacy as unknown as CivicEvent] });
    await before.close();

    const store = await LmdbGraphStore.open(storePath);
    const bus = await LocalStreamBus.open({ path: freshDir() });
    try {
      const got: CivicEvent[] = [];
      await bus.subscribe('civic.legacytest.>', (e) => void got.push(e));
      const relay = new OutboxRelay({ store, bus, log: createLogger('graph', 'silent') });
      expect(await relay.drain()).toBe(1);
      await expect.poll(() => got.length, { timeout: scaled(10_000) }).toBe(1);
      expect(got[0]).toMatchObject({
        id: legacy.id,
        type: 'candidacy.filing_status_changed',
        changes: [{ field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' }],
      });
      expect(eventObjectView(got[0]!)).toEqual(NODE);
      expect(await store.pendingEvents(10)).toEqual([]);
    } finally {
      await bus.close();
      await store.close();
    }
  });
});
