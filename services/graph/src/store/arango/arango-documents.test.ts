import { describe, expect, it } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { candidacy, contest, edge, region } from '../conformance-fixtures.js';
import { NODE_FIELDS, orderKey, toStoredEdge, toStoredNode } from './arango-documents.js';

const jsOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('orderKey', () => {
  it('orders strings exactly as JavaScript compares them, where a collation would not', () => {
    const tricky = [
      'a',
      'B',
      'b',
      'A',
      'a-b',
      'ab',
      'a:b',
      'a0',
      'a\u0000',
      '',
      'é',
      'e',
      'z',
      '🗳',
      '\uffff',
      '2026-11-03\u0000contest:x',
      '2026-11-03',
    ];
    const byJs = [...tricky].sort(jsOrder);
    const byKey = [...tricky].sort((a, b) => jsOrder(orderKey(a), orderKey(b)));
    expect(byKey).toEqual(byJs);
  });

  it('agrees with JavaScript on random strings, and uses only lowercase hex digits', () => {
    const random = seededRandom(42);
    const strings = Array.from({ length: 500 }, () =>
      String.fromCharCode(...Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * 0x10000))),
    );
    for (let i = 1; i < strings.length; i++) {
      const [a, b] = [strings[i - 1] as string, strings[i] as string];
      expect(Math.sign(jsOrder(orderKey(a), orderKey(b)))).toBe(Math.sign(jsOrder(a, b)));
      expect(orderKey(a)).toMatch(/^(?:[0-9a-f]{4})*$/);
    }
  });
});

describe('toStoredNode', () => {
  it('adds the derived attributes of a contest: its match values, its date and its order keys', () => {
    const c = contest('co-cd-1-us-representative-2026-general', { date: '2026-11-03' });
    const stored = toStoredNode(c);
    expect(stored).toMatchObject({
      _key: 'contest%3Aco-cd-1-us-representative-2026-general',
      idx: { region: 'region:co-cd-1', office: 'office:us-representative-co-1', level: 'congressional-district' },
      date: '2026-11-03',
      confidence: null,
      oslug: orderKey(c.slug),
      odate: orderKey('2026-11-03'),
    });
  });

  it('stores a candidacy confidence and its party, and keeps every NodeDoc field as given', () => {
    const x = candidacy('x', { confidence: 0.8, party: 'party:rep' });
    const stored = toStoredNode(x);
    expect(stored).toMatchObject({
      confidence: 0.8,
      date: null,
      odate: '',
      idx: { party: 'party:rep', person: 'person:x' },
    });
    for (const f of NODE_FIELDS) expect(stored[f]).toEqual(x[f]);
  });

  it('stores no date or confidence for a node without them', () => {
    expect(toStoredNode(region('co'))).toMatchObject({ idx: { level: 'state' }, date: null, confidence: null });
  });
});

describe('toStoredEdge', () => {
  it('points _from and _to at the node documents of its ends and keeps its own fields', () => {
    const e = edge('HOLDS', 'person:p', 'office:o', '2019-01-03', { start: '2019-01-03', end: null });
    expect(toStoredEdge(e, 'graph_nodes')).toMatchObject({
      ...e,
      _from: 'graph_nodes/person%3Ap',
      _to: 'graph_nodes/office%3Ao',
    });
  });
});
