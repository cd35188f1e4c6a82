import { describe, expect, it } from 'vitest';
import { sharedData } from '@civicgraph/kit';
import { GraphWriter } from '../../domain/writer.js';
import { MemoryGraphStore } from '../../store/memory/memory-graph-store.js';
import { runImport } from '../run-import.js';
import { importVip } from './index.js';

const V5 = sharedData('vip/sample_feed_v5.xml');
const V6 = sharedData('vip/sample_feed_v6.zip');

describe.skipIf(V5 === undefined || V6 === undefined)('VIP feeds through the GraphWriter', () => {
  it('writes both sample feeds into an empty store, and a second import changes nothing and emits no event', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    for (const path of [V5!, V6!]) {
      const first = await runImport(importVip(path), writer);
      expect(first.rejected).toEqual([]);
      expect(first.events).toBeGreaterThan(0);
      const again = await runImport(importVip(path), writer);
      expect(again).toMatchObject({ createdRows: 0, updatedRows: 0, events: 0, rejected: [] });
    }
    const obama = await store.getNode<'candidacy'>('candidacy:va-us-president-2013-general-barack-h-obama');
    expect(obama?.data.fields).toMatchObject({
      party: { value: 'party:democratic' },
      ballotAccess: { value: 'ON_BALLOT' },
    });
    expect(obama!.data.confidence).toBeGreaterThan(0);
    expect((await store.edges('region:az-precinct-0006', 'out', 'WITHIN')).map((e) => e.to)).toEqual([
      'region:az-maricopa-county',
    ]);
  });
});
