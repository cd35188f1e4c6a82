import { sharedData } from '@civicgraph/kit';
import { describe, expect, it } from 'vitest';
import { GraphWriter } from '../../domain/writer.js';
import { MemoryGraphStore } from '../../store/memory/memory-graph-store.js';
import { runImport } from '../run-import.js';
import { importLegislators } from './import-legislators.js';

const executive = sharedData('officeholders/congress-legislators/executive.yaml');

describe.skipIf(executive === undefined)('congress-legislators through the GraphWriter', () => {
  it('the 80 presidents and vice presidents are officeholders: one officeholder.changed per term, not only person.created', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    await runImport(importLegislators(executive!, { asOf: '2026-06-01', retrievedAt: '2026-06-15' }), writer);
    const events = (await store.pendingEvents(10_000)).map((e) => e.event);
    const terms = [
      ...(await store.edges('office:us-president', 'in', 'HOLDS')),
      ...(await store.edges('office:us-vice-president', 'in', 'HOLDS')),
    ];
    expect(events.filter((e) => e.subject === 'civic.test.person.created')).toHaveLength(80);
    const changed = events.filter((e) => e.subject === 'civic.test.officeholder.changed');
    expect(changed).toHaveLength(terms.length);
    expect(changed.map((e) => e.slugs)).toContainEqual(['office:us-president', 'person:bioguide-w000178']);
  });
});
