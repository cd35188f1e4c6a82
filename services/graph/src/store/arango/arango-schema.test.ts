import { describe, expect, it } from 'vitest';
import { INDEXED } from '../graph-store.js';
import { checkName, collectionNames, indexPlan } from './arango-schema.js';

describe('collectionNames', () => {
  it('names the four collections after the prefix', () => {
    expect(collectionNames('graph_')).toEqual({
      nodes: 'graph_nodes',
      edges: 'graph_edges',
      outbox: 'graph_outbox',
      meta: 'graph_meta',
    });
  });

  it('refuses a prefix that would make a name ArangoDB rejects', () => {
    expect(() => collectionNames('1x')).toThrow(/collection name "1xnodes"/);
    expect(() => collectionNames('a.b')).toThrow(RangeError);
    expect(() => collectionNames('x'.repeat(60))).toThrow(/at most 64/);
  });
});

describe('checkName', () => {
  it('accepts a letter then letters, digits, underscores and dashes, and nothing else', () => {
    expect(() => checkName('database', 'civic_test-1')).not.toThrow();
    for (const bad of ['', '_system', 'civic test', 'civic/x', 'é'])
      expect(() => checkName('database', bad)).toThrow(/database name/);
  });
});

describe('indexPlan', () => {
  const plan = indexPlan();
  const fields = (name: keyof typeof plan) => plan[name].map((i) => i.fields.join(','));

  it('indexes nodes by kind with scope, every match field, date, confidence and slug order', () => {
    expect(fields('nodes')).toEqual(
      expect.arrayContaining([
        'kind,oslug',
        'kind,odate,oslug',
        'kind,state',
        'kind,tier',
        'kind,confidence',
        ...INDEXED.map((f) => `kind,idx.${f}`),
      ]),
    );
  });

  it('indexes edges by end and kind, and the outbox by seq and event id', () => {
    expect(fields('edges')).toEqual(['_from,kind', '_to,kind']);
    expect(fields('outbox')).toEqual(['seq', 'event.id']);
  });

  it('names every index, once per collection, so a restart finds them', () => {
    for (const indexes of Object.values(plan)) {
      const names = indexes.map((i) => i.name);
      expect(names.every((n) => typeof n === 'string' && /^[A-Za-z][A-Za-z0-9_-]*$/.test(n))).toBe(true);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
