import { describe, expect, it } from 'vitest';
import { sharedData } from '@civicgraph/kit';
import { GraphWriter } from '../../domain/writer.js';
import type { ResultData } from '../../model/nodes.js';
import { MemoryGraphStore } from '../../store/memory/memory-graph-store.js';
import { runImport } from '../run-import.js';
import { importResults } from './index.js';

const CO = sharedData('results/medsl-2024/derived/co24-contest-totals.csv');
const DE_ZIP = sharedData('results/medsl-2024/individual_states/de24.zip');

describe.skipIf(CO === undefined || DE_ZIP === undefined)('results through the GraphWriter', () => {
  it('writes every contest batch into an empty store, and a second import changes nothing and emits no event', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    for (const path of [CO!, DE_ZIP!]) {
      const first = await runImport(importResults(path), writer);
      expect(first.rejected.every((r) => /have no region level/.test(r.reason))).toBe(true);
      expect(first.createdRows).toBe(path === CO ? 178 : 67);
      const again = await runImport(importResults(path), writer);
      expect({ ...again, rejected: again.rejected.length }).toEqual({
        createdRows: 0, updatedRows: 0, unchangedRows: first.createdRows, rejected: first.rejected.length,
        nodes: { created: 0, updated: 0, unchanged: again.nodes.unchanged }, events: 0,
      });
    }
    const harris = await store.getNode<'result'>('result:co-us-president-2024-general-kamala-d-harris');
    expect(harris?.data).toMatchObject({ votes: 1_728_159, winner: true } satisfies Partial<ResultData>);
    expect((await store.edges('contest:co-us-president-2024-general', 'out')).map((e) => `${e.kind} ${e.to}`).sort()).toEqual([
      'FOR_OFFICE office:us-president',
      'IN_ELECTION election:co-2024-11-05',
      'IN_REGION region:co',
      'SUPPORTED_BY provenance:medsl-co24-contest-totals',
    ]);
  });

  it('links a result to a candidacy the store already holds, through the storedCandidacies lookup', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    await runImport(importResults(CO!), writer);
    const contest = 'contest:co-cd-8-us-representative-2024-general';
    const candidacy = 'candidacy:co-cd-8-us-representative-2024-general-gabe-evans';
    await writer.apply({
      nodes: [
        { kind: 'provenance', slug: 'provenance:test', state: '', tier: '', data: { source: 'test', url: 'https://example.test', publisher: 'test', licence: 'CC0', retrievedAt: '2026-01-01T00:00:00Z', method: 'manual' } },
        { kind: 'person', slug: 'person:test-gabe-evans', state: 'co', tier: '', data: { name: 'Gabe Evans', givenName: 'Gabe', familyName: 'Evans', ids: {}, birthday: null, gender: null } },
        { kind: 'candidacy', slug: candidacy, state: 'co', tier: 'federal', claims: { name: 'Gabe Evans', person: 'person:test-gabe-evans', contest }, provenance: 'provenance:test' },
      ],
      edges: [],
    });
    const again = await runImport(importResults(CO!, { storedCandidacies: async (slugs) => (await store.getNodes(slugs)).map((n) => n.slug) }), writer);
    expect(again.updatedRows).toBe(1);
    expect((await store.edges(candidacy, 'in', 'RESULT_FOR')).map((e) => e.from)).toEqual(['result:co-cd-8-us-representative-2024-general-gabe-evans']);
  });
});
