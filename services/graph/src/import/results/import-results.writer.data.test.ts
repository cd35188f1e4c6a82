import { describe, expect, it } from 'vitest';
import { sharedData } from '@civicgraph/kit';
import { GraphWriter } from '../../domain/writer.js';
import type { ResultData } from '../../model/nodes.js';
import { MemoryGraphStore } from '../../store/memory/memory-graph-store.js';
import { runImport } from '../run-import.js';
import { importResults } from './index.js';
import { officePeople } from '../office-people.js';

const CO = sharedData('results/medsl-2024/derived/co24-contest-totals.csv');
const DE_ZIP = sharedData('results/medsl-2024/individual_states/de24.zip');

describe.skipIf(CO === undefined || DE_ZIP === undefined)('results through the GraphWriter', () => {
  it('writes every contest batch into an empty store, and a second import changes nothing and emits no event', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    for (const path of [CO!, DE_ZIP!]) {
      const first = await runImport(importResults(path), writer);
      expect(first.rejected).toEqual([]);
      expect(first.createdRows).toBe(path === CO ? 260 : 87);
      const again = await runImport(importResults(path), writer);
      expect({ ...again, rejected: again.rejected.length }).toEqual({
        createdRows: 0,
        updatedRows: 0,
        unchangedRows: first.createdRows,
        rejected: first.rejected.length,
        nodes: { created: 0, updated: 0, unchanged: again.nodes.unchanged },
        events: 0,
      });
    }
    const harris = await store.getNode<'result'>('result:co-us-president-2024-general-kamala-d-harris');
    expect(harris?.data).toMatchObject({ votes: 1_728_159, winner: true } satisfies Partial<ResultData>);
    expect(
      (await store.edges('contest:co-us-president-2024-general', 'out')).map((e) => `${e.kind} ${e.to}`).sort(),
    ).toEqual([
      'FOR_OFFICE office:us-president',
      'IN_ELECTION election:co-2024-11-05',
      'IN_REGION region:co',
      'SUPPORTED_BY provenance:medsl-co24-contest-totals',
    ]);
  });

  it('ties a certified candidate to the person the store holds the office for, through officePeople', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    await writer.apply({
      nodes: [
        {
          kind: 'provenance',
          slug: 'provenance:test',
          state: '',
          tier: '',
          data: {
            source: 'test',
            url: 'https://example.test',
            publisher: 'test',
            licence: 'CC0',
            retrievedAt: '2026-01-01T00:00:00Z',
            method: 'manual',
          },
        },
        {
          kind: 'person',
          slug: 'person:bioguide-c001121',
          state: 'co',
          tier: '',
          data: {
            name: 'Jason Crow',
            givenName: 'Jason',
            familyName: 'Crow',
            ids: { bioguide: ['C001121'] },
            birthday: null,
            gender: null,
          },
        },
        {
          kind: 'office',
          slug: 'office:co-cd-6-us-representative',
          state: 'co',
          tier: 'federal',
          data: {
            name: 'U.S. Representative',
            level: 'congressional-district',
            tier: 'federal',
            region: 'region:co-cd-6',
          },
        },
      ],
      edges: [
        {
          kind: 'HOLDS',
          from: 'person:bioguide-c001121',
          to: 'office:co-cd-6-us-representative',
          key: '2023-01-03',
          data: { start: '2023-01-03', end: '2025-01-03', party: null },
        },
      ],
    });
    await runImport(importResults(CO!, { officePeople: officePeople(store) }), writer);
    const candidacy = await store.getNode<'candidacy'>('candidacy:co-cd-6-us-representative-2024-general-jason-crow');
    expect(candidacy?.data.fields.person.value).toBe('person:bioguide-c001121');
    expect(await store.getNode('person:co-cd-6-jason-crow')).toBeUndefined();
    expect((await store.edges(candidacy!.slug, 'in', 'RESULT_FOR')).map((e) => e.from)).toEqual([
      'result:co-cd-6-us-representative-2024-general-jason-crow',
    ]);
  });
});
