import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DEMO_REGIONS } from '../../../test/demo-regions.js';
import { readGraph, type WholeGraph } from '../../../test/read-graph.js';
import { generateDemo } from '../../demo/generate.js';
import { GraphWriter } from '../../domain/writer.js';
import { NODE_KINDS } from '../../model/kinds.js';
import { MemoryGraphStore } from '../../store/memory/memory-graph-store.js';
import { propertiesOf } from '../schema.js';
import { accessAql, accessKeys, accessOf, readAccess } from './properties.js';
import { aql } from 'arangojs/aql';

describe('the AQL property table', () => {
  let graph: WholeGraph;

  beforeAll(async () => {
    const store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test', now: () => new Date('2026-11-22T12:00:00Z') });
    for (const batch of generateDemo({ regions: TEST_DEMO_REGIONS, today: '2026-11-22' })) await writer.apply(batch);
    graph = await readGraph(store);
  });

  it.each(NODE_KINDS)('covers exactly the schema properties of %s', (kind) => {
    expect(accessKeys(kind).sort()).toEqual(Object.keys(propertiesOf(kind)).sort());
  });

  it('reads what the schema readers read, for every property of every node of the demo graph', () => {
    let checked = 0;
    for (const [kind, docs] of graph.nodes) {
      expect(docs.length, `the demo graph has ${kind} nodes`).toBeGreaterThan(0);
      for (const doc of docs) {
        for (const [key, spec] of Object.entries(propertiesOf(kind))) {
          expect(readAccess(doc, accessOf(kind, key)!), `${doc.slug}.${key}`).toEqual(spec.read(doc));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('writes attribute paths of identifiers only, and no value', () => {
    for (const kind of NODE_KINDS) {
      for (const key of accessKeys(kind)) {
        const q = accessAql(aql`n`, accessOf(kind, key)!);
        expect(q.query).toMatch(/^[A-Za-z0-9_.()\s=,[\]]+$|IS_STRING|NOT_NULL/);
        expect(Object.keys(q.bindVars)).toEqual([]);
        for (const part of accessOf(kind, key)!.path) expect(part).toMatch(/^[A-Za-z]+$/);
      }
    }
  });

  it('leaves a key no kind has out of the table (it reads null)', () => {
    expect(accessOf('region', 'nope')).toBeUndefined();
    expect(accessOf('region', 'constructor')).toBeUndefined();
  });
});
