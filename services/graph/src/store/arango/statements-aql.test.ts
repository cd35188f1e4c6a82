import { Database } from 'arangojs';
import type { AqlQuery } from 'arangojs/aql';
import { describe, expect, it } from 'vitest';
import { changes, edge, event, region } from '../conformance-fixtures.js';
import { commitStatements } from './arango-commit.js';
import { toStoredNode } from './arango-documents.js';
import { UnencodableKeyError } from './arango-keys.js';
import {
  ackEventsAql,
  appendOutboxAql,
  currentRevsAql,
  edgesAql,
  edgesOfAql,
  linkAql,
  nodesByKeyAql,
  outboxEntries,
  pendingEventsAql,
  putNodesAql,
  removeNodesAql,
  removeTouchingEdgesAql,
  reserveSeqAql,
  statsAql,
  unlinkAql,
  type ArangoCollections,
} from './statements-aql.js';

// Collection objects only: nothing here talks to a server.
const db = new Database({ url: 'http://127.0.0.1:1' });
const c: ArangoCollections = {
  nodes: db.collection('graph_nodes'),
  edges: db.collection('graph_edges'),
  outbox: db.collection('graph_outbox'),
  meta: db.collection('graph_meta'),
};

const BAD = '") REMOVE x IN graph_nodes //';

/** Every statement, built from a value: the value must reach only the bind variables. */
const statements: Record<string, (v: string) => AqlQuery> = {
  currentRevs: (v) => currentRevsAql(c.nodes, [v]),
  removeTouchingEdges: (v) => removeTouchingEdgesAql(c.edges, [v]),
  removeNodes: (v) => removeNodesAql(c.nodes, [v]),
  putNodes: (v) => putNodesAql(c.nodes, [{ ...toStoredNode(region('co')), slug: v }]),
  unlink: (v) => unlinkAql(c.edges, [v]),
  link: (v) => linkAql(c.edges, [{ ...edge('WITHIN', v, v), _key: v, _from: v, _to: v }]),
  reserveSeq: () => reserveSeqAql(c.meta, 3),
  appendOutbox: (v) => appendOutboxAql(c.outbox, outboxEntries([{ ...event('region:co'), id: v }], 7)),
  pending: () => pendingEventsAql(c.outbox, 10),
  ack: (v) => ackEventsAql(c.outbox, [v]),
  nodesByKey: (v) => nodesByKeyAql(c.nodes, [v]),
  edgesOut: (v) => edgesAql(c.edges, v, 'out', 'WITHIN'),
  edgesIn: (v) => edgesAql(c.edges, v, 'in'),
  edgesOf: (v) => edgesOfAql(c.edges, [v, 'graph_nodes/x'], 'out', 'OF_PARTY'),
  stats: () => statsAql(c),
};

describe('AQL statements', () => {
  it.each(Object.entries(statements))(
    '%s keeps caller values out of its text and binds its collections by name',
    (_, build) => {
      const q = build(BAD);
      expect(q.query).not.toContain(BAD);
      expect(build('something else').query).toBe(q.query);
      for (const [name, value] of Object.entries(q.bindVars)) {
        if (name.startsWith('@')) expect(Object.values(c).map((col) => col.name)).toContain(value);
      }
      expect(q.query).not.toMatch(/graph_(nodes|edges|outbox|meta)/);
    },
  );

  it('reads in-edges by _to and out-edges by _from, the ends the edge index serves', () => {
    expect(edgesAql(c.edges, 'graph_nodes/x', 'out').query).toMatch(/FILTER e\._from == @value\d/);
    expect(edgesAql(c.edges, 'graph_nodes/x', 'in').query).toMatch(/FILTER e\._to == @value\d/);
    expect(edgesAql(c.edges, 'graph_nodes/x', 'in').query).not.toContain('e.kind ==');
  });
});

describe('outboxEntries', () => {
  it('numbers events up to the last seq reserved, in commit order, keyed by seq', () => {
    const events = [event('region:a'), event('region:b'), event('region:c')];
    expect(outboxEntries(events, 12)).toEqual([
      { _key: '10', seq: 10, event: events[0] },
      { _key: '11', seq: 11, event: events[1] },
      { _key: '12', seq: 12, event: events[2] },
    ]);
  });
});

describe('commitStatements', () => {
  it('writes puts, then removes with their edges, then unlinks, then links, as every adapter does', () => {
    const steps = commitStatements(
      c,
      changes({
        put: [{ node: region('co'), expectRev: 0 }],
        remove: [{ slug: 'region:wy', expectRev: 1 }],
        unlink: [edge('WITHIN', 'region:co', 'region:us')],
        link: [edge('WITHIN', 'region:co', 'region:west')],
      }),
    );
    expect(steps.map(kindOf)).toEqual(['put-nodes', 'remove-edges', 'remove-nodes', 'unlink', 'link']);
  });

  it('stores a put at expectRev + 1 under its encoded key, and points removed edges at node ids', () => {
    const [put, touching] = commitStatements(
      c,
      changes({
        put: [{ node: { ...region('co'), rev: 9 }, expectRev: 4 }],
        remove: [{ slug: 'region:wy', expectRev: 1 }],
      }),
    );
    expect(JSON.stringify(put?.bindVars)).toContain('"_key":"region%3Aco"');
    expect(JSON.stringify(put?.bindVars)).toContain('"rev":5');
    expect(Object.values(touching?.bindVars ?? {})).toContainEqual(['graph_nodes/region%3Awy']);
  });

  it('writes nothing for an empty change set and fails before any transaction on a slug no key can hold', () => {
    expect(commitStatements(c, changes({}))).toEqual([]);
    const long = { ...region('co'), slug: `region:${'x'.repeat(300)}` };
    expect(() => commitStatements(c, changes({ put: [{ node: long, expectRev: 0 }] }))).toThrow(UnencodableKeyError);
  });
});

function kindOf(q: AqlQuery): string {
  const collection = Object.entries(q.bindVars).find(([name]) => name.startsWith('@'))?.[1];
  if (q.query.includes('touching')) return 'remove-edges';
  if (q.query.includes('INSERT')) return collection === 'graph_nodes' ? 'put-nodes' : 'link';
  return collection === 'graph_nodes' ? 'remove-nodes' : 'unlink';
}
