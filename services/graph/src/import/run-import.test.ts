import { describe, expect, it } from 'vitest';
import type { DraftItem } from '../domain/drafts.js';
import { batch, candidacy, candidacyWorld, party, person, provenance } from '../domain/test-drafts.js';
import { GraphWriter } from '../domain/writer.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { runImport } from './run-import.js';

async function* items(list: DraftItem[]): AsyncGenerator<DraftItem> {
  yield* list;
}

const good = (i: number): DraftItem => ({
  at: `line ${i}`,
  batch: batch([provenance('src'), party('dem'), person(`p${i}`)]),
});
/** A candidacy citing a provenance record that exists nowhere: the writer refuses it. */
const bad: DraftItem = {
  at: 'line 99',
  batch: batch([
    {
      kind: 'candidacy',
      slug: 'candidacy:x',
      state: 'co',
      tier: 'federal',
      claims: { name: 'X' },
      provenance: 'provenance:missing',
    },
  ]),
};

describe('runImport', () => {
  it('commits rows in groups, and a refused row is rejected with its reason while the rest of its group is kept', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    const list = [good(1), good(2), bad, good(3), { rejected: { at: 'line 5', reason: 'state "XX" is not a state' } }];
    const tally = await runImport(items(list), writer, () => {}, 10);
    expect(tally.createdRows).toBe(3);
    expect(tally.rejected.map((r) => r.at)).toEqual(['line 5', 'line 99']);
    expect(tally.rejected[1]!.reason).toMatch(/provenance/);
    expect((await store.getNodes(['person:p1', 'person:p2', 'person:p3', 'candidacy:x'])).map((n) => n.slug)).toEqual([
      'person:p1',
      'person:p2',
      'person:p3',
    ]);
  });

  it('counts a re-run as unchanged, with no events, whatever the group size', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    const list = [good(1), good(2), good(3)];
    const first = await runImport(items(list), writer, () => {}, 2);
    expect([first.createdRows, first.unchangedRows]).toEqual([3, 0]);
    const again = await runImport(items(list), writer, () => {}, 100);
    expect([again.createdRows, again.updatedRows, again.unchangedRows, again.events]).toEqual([0, 0, 3, 0]);
  });

  it('ends the import on a failure that is not about a row', async () => {
    const broken = {
      apply: async () => {
        throw new Error('disk full');
      },
    };
    await expect(runImport(items([good(1)]), broken)).rejects.toThrow('disk full');
  });

  it('reports progress after every group', async () => {
    const store = new MemoryGraphStore();
    const seen: number[] = [];
    await runImport(
      items([good(1), good(2), good(3)]),
      new GraphWriter({ store, env: 'test' }),
      (t) => seen.push(t.createdRows),
      2,
    );
    expect(seen).toEqual([2, 3]);
  });

  it('refuses in a group the state move a row would be refused alone: DECLARED then QUALIFIED from one source', async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test' });
    const world: DraftItem = {
      at: 'line 1',
      batch: batch([provenance('sos', 'official-filing'), ...candidacyWorld()]),
    };
    const declared: DraftItem = { at: 'line 2', batch: batch([candidacy('sos', { filingStatus: 'DECLARED' })]) };
    const skipped: DraftItem = { at: 'line 3', batch: batch([candidacy('sos', { filingStatus: 'QUALIFIED' })]) };
    const tally = await runImport(items([world, declared, skipped]), writer, () => {}, 10);
    expect(tally.rejected.map((r) => r.at)).toEqual(['line 3']);
    expect(tally.rejected[0]!.reason).toMatch(/filing_status.*DECLARED.*QUALIFIED/s);
    const stored = await store.getNode<'candidacy'>('candidacy:co-cd-1-2026-jane-doe');
    expect(stored?.data.fields.filingStatus?.value).toBe('DECLARED');
  });
});
