import { describe, expect, it } from 'vitest';
import { CivicError } from '@civicgraph/kit';
import { parseQuery } from './build-ast.js';

function refusal(query: string): CivicError {
  try {
    parseQuery(query);
  } catch (err) {
    if (err instanceof CivicError) return err;
    throw err;
  }
  throw new Error(`accepted: ${query}`);
}

describe('parseQuery', () => {
  it('reads patterns: labels, properties, directions, types, bounded lengths', () => {
    const q = parseQuery("MATCH (a:Contest {state: 'co'})<-[r:FOR_CONTEST|OF_PARTY*1..3]-(b), (b)--(c)-->(d) RETURN a");
    const m = q.clauses[0]!;
    if (m.kind !== 'match') throw new Error('not a match');
    const [first, second] = m.patterns;
    expect(first!.nodes.map((n) => n.variable)).toEqual(['a', 'b']);
    expect(first!.nodes[0]!.labels).toEqual(['Contest']);
    expect(first!.nodes[0]!.properties[0]![0]).toBe('state');
    expect(first!.rels[0]).toMatchObject({
      variable: 'r',
      types: ['FOR_CONTEST', 'OF_PARTY'],
      direction: 'in',
      hops: { min: 1, max: 3 },
    });
    expect(second!.rels.map((r) => r.direction)).toEqual(['both', 'out']);
    expect(second!.rels.map((r) => r.hops)).toEqual([undefined, undefined]);
  });

  it('reads the length forms *n and *..n', () => {
    const lengths = (q: string) => {
      const m = parseQuery(q).clauses[0]!;
      return m.kind === 'match' ? m.patterns[0]!.rels[0]!.hops : undefined;
    };
    expect(lengths('MATCH (a)-[*2]->(b) RETURN a')).toEqual({ min: 2, max: 2 });
    expect(lengths('MATCH (a)-[*..4]->(b) RETURN a')).toEqual({ min: 1, max: 4 });
  });

  it('reads projections: DISTINCT, aliases, ORDER BY, SKIP, LIMIT, and names columns by their text', () => {
    const q = parseQuery('MATCH (n:Party) RETURN DISTINCT n.name AS name, count(*) ORDER BY name DESC SKIP 1 LIMIT $n');
    const r = q.clauses[1]!;
    if (r.kind !== 'return') throw new Error('not a return');
    expect(r.projection.distinct).toBe(true);
    expect(r.projection.items.map((i) => i.name)).toEqual(['name', 'count(*)']);
    expect(r.projection.order[0]!.descending).toBe(true);
    expect(r.projection.skip).toEqual({ kind: 'literal', value: 1 });
    expect(r.projection.limit).toMatchObject({ kind: 'parameter', name: 'n' });
  });

  it('reads string escapes, numbers and operator precedence', () => {
    const r = parseQuery("RETURN 'it\\'s\\n', 0x1F, 1.5e3, 1 + 2 * 3, NOT true OR false").clauses[0]!;
    if (r.kind !== 'return') throw new Error('not a return');
    const [s, hex, float, arith, logic] = r.projection.items.map((i) => i.expr);
    expect(s).toEqual({ kind: 'literal', value: "it's\n" });
    expect(hex).toEqual({ kind: 'literal', value: 31 });
    expect(float).toEqual({ kind: 'literal', value: 1500, float: true });
    expect(arith).toMatchObject({ kind: 'arith', op: '+', right: { kind: 'arith', op: '*' } });
    expect(logic).toMatchObject({ kind: 'logic', op: 'or', args: [{ kind: 'not' }, { kind: 'literal' }] });
  });

  it.each([
    ['CREATE (n) RETURN n', 'CREATE at line 1, column 1'],
    ['MERGE (n:Party) RETURN n', 'MERGE at line 1, column 1'],
    ['MATCH (n)\nDELETE n', 'DELETE at line 2, column 1'],
    ['MATCH (n) REMOVE n.name RETURN n', 'REMOVE at line 1, column 11'],
    ['CALL db.labels()', 'CALL at line 1, column 1'],
    ['LOAD CSV FROM "x" AS row RETURN row', 'LOAD CSV'],
    ['MATCH (a) RETURN a UNION ALL MATCH (b) RETURN b', 'UNION'],
    ['MATCH (a)-[*2..]->(b) RETURN a', 'unbounded variable-length'],
    ['MATCH p = (a)-->(b) RETURN p', 'path variables'],
    ['MATCH (a) WHERE a:Party RETURN a', 'label predicates'],
    ['MATCH (a) RETURN CASE WHEN true THEN 1 END', 'CASE'],
    ['MATCH (a) RETURN [x IN [1] | x]', 'list comprehensions'],
    ['MATCH (a) WHERE (a)-->() RETURN a', 'pattern predicates'],
    ['MATCH (a) RETURN apoc.text.join([], "")', 'apoc.text.join'],
    ['MATCH (a) RETURN randomUUID()', 'randomUUID()'],
    ['EXPLAIN MATCH (a) RETURN a', 'query options'],
    ['MATCH (a) RETURN a; MATCH (b) RETURN b', 'more than one statement'],
  ])('refuses %s as unsupported_cypher naming %s', (query, named) => {
    const err = refusal(query);
    expect(err.type).toBe('unsupported_cypher');
    expect(err.field).toBe('query');
    expect(err.message).toContain(named);
  });

  it('refuses a syntax error as invalid_parameter with its position', () => {
    const err = refusal('MATCH (n RETURN n');
    expect(err.type).toBe('invalid_parameter');
    expect(err.message).toContain('line 1, column 10');
  });

  it('refuses a query that does not end with RETURN', () => {
    expect(refusal('MATCH (n)').message).toContain('must end with RETURN');
  });

  it('refuses a wrong number of arguments, naming the function', () => {
    expect(refusal('RETURN size(1, 2)').message).toContain('size() at line 1, column 8 takes 1 argument');
  });
});
