import { InvalidParameterError } from '@civicgraph/kit';
import { Database } from 'arangojs';
import { describe, expect, it } from 'vitest';
import { sortKey } from '../../model/index-keys.js';
import { contest, election } from '../conformance-fixtures.js';
import type { NodeQuery } from '../graph-store.js';
import { orderKey } from './arango-documents.js';
import { checkNodeQuery, nodeQueryAql, splitDateCursor, toPage } from './node-query-aql.js';

// Building a query object needs a collection object, not a server: nothing connects here.
const nodes = new Database({ url: 'http://127.0.0.1:1' }).collection('graph_nodes');

/** Values an attacker would like to see pasted into the query text. */
const HOSTILE = ['" || true || "', "') REMOVE n IN graph_nodes //", '@injected', '1 == 1 OR n.rev'];
/** Values that look like the query's own text: they must not change it either. */
const LOOKALIKE = ['@@value0', '@value1', 'n.kind'];

const full = (v: string): NodeQuery => ({
  kind: 'contest',
  states: [v, 'co'],
  tiers: [v],
  match: { region: [v], office: [v, 'office:x'], party: [v] },
  dateFrom: v,
  dateTo: v,
  minConfidence: 0.25,
  order: 'date',
  after: `${v}\u0000${v}`,
  limit: 10,
});

describe('nodeQueryAql', () => {
  it('produces the same query text whatever the values: only which options are present shapes it', () => {
    const texts = new Set([...HOSTILE, ...LOOKALIKE].map((v) => nodeQueryAql(nodes, full(v)).query));
    expect(texts.size).toBe(1);
  });

  it('never puts a caller value in the query text: every one is a bind variable', () => {
    for (const v of HOSTILE) {
      const q = nodeQueryAql(nodes, full(v));
      expect(q.query).not.toContain(v);
      const bound = JSON.stringify(q.bindVars);
      expect(bound).toContain(JSON.stringify(v));
      expect(bound).toContain(JSON.stringify(orderKey(v)));
    }
  });

  it('binds the collection as a collection parameter and asks for one row more than the limit', () => {
    const q = nodeQueryAql(nodes, { kind: 'region', limit: 50 });
    expect(q.query).toMatch(/FOR n IN @@value\d/);
    expect(Object.entries(q.bindVars)).toEqual(
      expect.arrayContaining([
        ['@value0', 'graph_nodes'],
        [expect.any(String), 51],
      ]),
    );
    expect(q.query).toMatch(/SORT n\.kind, n\.oslug/);
    expect(q.query).not.toMatch(/FILTER n\.(state|tier|idx|date|confidence|oslug >)/);
  });

  it('filters each named match field through its own fixed attribute', () => {
    const q = nodeQueryAql(nodes, {
      kind: 'candidacy',
      match: { contest: ['contest:a'], party: ['party:dem'] },
      limit: 5,
    });
    expect(q.query).toMatch(/FILTER n\.idx\.contest IN @value\d/);
    expect(q.query).toMatch(/FILTER n\.idx\.party IN @value\d/);
    expect(q.query).not.toContain('n.idx.region');
  });

  it('lets nodes without a tier through a tiers scope and nodes without confidence through minConfidence', () => {
    const q = nodeQueryAql(nodes, { kind: 'contest', tiers: ['federal'], minConfidence: 0.5, limit: 5 });
    expect(q.query).toMatch(/FILTER n\.tier == "" OR n\.tier IN @value\d/);
    expect(q.query).toMatch(/FILTER n\.confidence == null OR n\.confidence >= @value\d/);
  });

  it('compares the slug cursor as an order key in slug order, and date then slug in date order', () => {
    const bySlug = nodeQueryAql(nodes, { kind: 'region', after: 'region:co', limit: 5 });
    expect(bySlug.query).toMatch(/FILTER n\.oslug > @value\d/);
    expect(Object.values(bySlug.bindVars)).toContain(orderKey('region:co'));

    const byDate = nodeQueryAql(nodes, {
      kind: 'election',
      order: 'date',
      after: '2026-11-03\u0000election:co',
      limit: 5,
    });
    expect(byDate.query).toMatch(/SORT n\.kind, n\.odate, n\.oslug/);
    expect(Object.values(byDate.bindVars)).toEqual(
      expect.arrayContaining([orderKey('2026-11-03'), orderKey('election:co')]),
    );
  });
});

describe('splitDateCursor', () => {
  it('splits a sortKey cursor at its NUL, and reads one without NUL as a bare date', () => {
    const node = election('co-2026', '2026-11-03');
    expect(splitDateCursor(sortKey(node, 'date'))).toEqual({ date: '2026-11-03', slug: 'election:co-2026' });
    expect(splitDateCursor('2026-11-03')).toEqual({ date: '2026-11-03', slug: '' });
    expect(splitDateCursor('\u0000region:co')).toEqual({ date: '', slug: 'region:co' });
  });
});

describe('checkNodeQuery', () => {
  const field = (q: NodeQuery): string | undefined => {
    try {
      checkNodeQuery(q);
      return undefined;
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidParameterError);
      return (err as InvalidParameterError).field;
    }
  };

  it('names the field a query cannot be answered for', () => {
    expect(field({ kind: 'region', limit: 0 })).toBe('limit');
    expect(field({ kind: 'region', limit: 1001 })).toBe('limit');
    expect(field({ kind: 'region', limit: 2.5 })).toBe('limit');
    expect(field({ kind: 'candidacy', limit: 5, minConfidence: 1.5 })).toBe('min_confidence');
    expect(field({ kind: 'candidacy', limit: 5, minConfidence: Number.NaN })).toBe('min_confidence');
    expect(field({ kind: 'region', limit: 5, order: 'name' as 'slug' })).toBe('order');
    expect(field({ kind: 'region', limit: 5, match: { 'n.kind': ['x'] } as NodeQuery['match'] })).toBe('match.n.kind');
    expect(
      field({ kind: 'region', limit: 1000, match: { level: ['state'] }, order: 'date', minConfidence: 0 }),
    ).toBeUndefined();
  });
});

describe('toPage', () => {
  const rows = ['a', 'b', 'c'].map((k) => contest(k, { date: '2026-11-03' }));

  it('returns the rows and no cursor when no more than the limit came back', () => {
    expect(toPage(rows, { kind: 'contest', limit: 3 })).toEqual({ nodes: rows, next: undefined });
  });

  it('drops the extra row and points the cursor at the last row kept, in the query order', () => {
    expect(toPage(rows, { kind: 'contest', limit: 2 })).toEqual({ nodes: rows.slice(0, 2), next: 'contest:b' });
    expect(toPage(rows, { kind: 'contest', limit: 2, order: 'date' }).next).toBe('2026-11-03\u0000contest:b');
  });
});
