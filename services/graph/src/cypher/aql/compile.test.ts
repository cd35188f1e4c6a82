import { InvalidParameterError, UnsupportedCypherError } from '@civicgraph/kit';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { Database } from 'arangojs';
import type { EdgeCollection } from 'arangojs/collections';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../build-ast.js';
import { compileCypher, type CompiledCypher } from './compile.js';

/** Collections as arangojs names them in a query; no server is contacted to compile. */
const db = new Database({ url: 'http://127.0.0.1:1' });
const nodes = db.collection('graph_nodes');
const edges = db.collection('graph_edges') as unknown as EdgeCollection;

function principal(states: string[], tiers: string[] = []): Principal {
  return {
    keyId: 'key_test',
    environment: Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_BUILD,
    rateLimitPerMinute: 60,
    pinnedVersion: '',
    entitlements: { contact: false, geography: false, states, tiers },
  };
}

const SCOPED = principal(['co'], ['county']);

function compile(
  query: string,
  parameters: Record<string, unknown> = {},
  who: Principal = SCOPED,
  minConfidence = 0.4,
): CompiledCypher {
  return compileCypher(parseQuery(query), { nodes, edges, principal: who, minConfidence, parameters, rowCap: 10_001 });
}

/** The bind variable holding `value`, as `@name` in the text. */
function bindOf(c: CompiledCypher, value: unknown): string {
  const entry = Object.entries(c.query.bindVars).find(([, v]) => JSON.stringify(v) === JSON.stringify(value));
  if (entry === undefined) throw new Error(`no bind variable holds ${JSON.stringify(value)}`);
  return `@${entry[0]}`;
}

describe('compileCypher: the AQL for representative queries', () => {
  it('a label and an inline property: a scoped loop over the nodes, the value bound', () => {
    const c = compile("MATCH (c:Contest {level: 'county'}) RETURN c.name AS name");
    const text = c.query.query;
    expect(c.columns).toEqual(['name']);
    expect(text).toMatch(/^FOR o0 IN \[null\]\nFOR v1 IN @@value\d+/);
    expect(c.query.bindVars[bindOf(c, 'graph_nodes').slice(1)]).toBe('graph_nodes');
    expect(text).toContain(`FILTER v1.kind == ${bindOf(c, 'contest')}`);
    // The index-friendly prefilter, then openCypher's equality on the same attribute.
    expect(text).toContain(`FILTER v1.data.level == ${bindOf(c, 'county')}`);
    expect(text).toContain('TO_HEX(t');
    expect(text).toContain(`LIMIT ${bindOf(c, 10_001)}`);
    expect(text).toMatch(/RETURN \[v\d+\]$/);
  });

  it('a typed relationship: one loop over its edges from the bound node, the far node scoped too', () => {
    const c = compile('MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) RETURN k.slug, count(c) AS n');
    const text = c.query.query;
    expect(text).toContain('FILTER e2._to == v1._id');
    expect(text).toContain(`FILTER e2.kind IN ${bindOf(c, ['FOR_CONTEST'])}`);
    expect(text).toContain('FILTER v3._id == e2._from');
    expect(text).toMatch(/COLLECT g\d+ = t\d+, k\d+ = \(IS_STRING/);
    expect(c.columns).toEqual(['k.slug', 'n']);
  });

  it('an undirected relationship reads either end, a self-loop once', () => {
    const text = compile('MATCH (o:Office)-[:SERVES_REGION]-(r:Region) RETURN o.name').query.query;
    expect(text).toContain('FILTER e2._from == v1._id OR e2._to == v1._id');
    expect(text).toContain('FILTER v3._id == (e2._from == v1._id ? e2._to : e2._from)');
  });

  it('a bounded variable-length relationship: a traversal with bound depths, trail uniqueness, distinct paths', () => {
    const c = compile("MATCH (r:Region {slug: 'region:co'})-[w:WITHIN*1..3]->(s:Region) RETURN s.slug, w");
    const text = c.query.query;
    expect(text).toMatch(/FOR v\d+, e\d+, p\d+ IN @value\d+\.\.@value\d+ OUTBOUND v1\._id @@value\d+/);
    expect(Object.values(c.query.bindVars)).toEqual(expect.arrayContaining([1, 3]));
    expect(text).toContain('OPTIONS { uniqueVertices: "none", uniqueEdges: "path" }');
    expect(text).toContain('RETURN DISTINCT');
  });

  it('a pattern walked right to left gives its relationship list in the pattern order', () => {
    const text = compile("MATCH (s:Region)-[w:WITHIN*1..2]->(r:Region {slug: 'region:co'}) RETURN w").query.query;
    expect(text).toMatch(/INBOUND/);
    expect(text).toMatch(/REVERSE\(p\d+\.es\)/);
  });

  it('two relationship patterns in one MATCH never bind one relationship twice', () => {
    const text = compile(
      'MATCH (c1:Candidacy)-[:FOR_CONTEST]->(k:Contest)<-[:FOR_CONTEST]-(c2:Candidacy) RETURN count(*)',
    ).query.query;
    expect(text).toMatch(
      /LET (t\d+) = FLATTEN\(\[\[e\d+\._id\], \[e\d+\._id\]\]\)\nFILTER LENGTH\(UNIQUE\(\1\)\) == LENGTH\(\1\)/,
    );
  });

  it('OPTIONAL MATCH: a subquery, one row of nulls when it finds nothing', () => {
    const text = compile('MATCH (c:Candidacy) OPTIONAL MATCH (c)-[:OF_PARTY]->(y:Party) RETURN y.name').query.query;
    expect(text).toMatch(/LET (t\d+) = \(FOR o\d+ IN \[null\]\nFILTER \(IS_OBJECT\(v1\)/);
    expect(text).toMatch(/FOR o\d+ IN \(LENGTH\(t\d+\) > 0 \? t\d+ : \[\[\]\]\)/);
  });

  it('aggregation without keys collects every row in a subquery (one row even for none)', () => {
    const text = compile('MATCH (c:Contest) WHERE c.year > 3000 RETURN count(*), min(c.year)').query.query;
    expect(text).toMatch(/^LET g\d+ = \(FOR o0 IN \[null\]/);
    expect(text).not.toContain('COLLECT');
  });

  it('WITH … WHERE, UNWIND, DISTINCT, ORDER BY, SKIP and LIMIT', () => {
    const c = compile(
      'UNWIND $years AS y MATCH (c:Contest {year: y}) WITH DISTINCT c.level AS level WHERE level <> $no RETURN level ORDER BY level DESC SKIP 1 LIMIT $n',
      { years: [2026, 2028], no: 'state', n: 5 },
    );
    const text = c.query.query;
    expect(text).toContain(`FOR v1 IN (IS_ARRAY(${bindOf(c, [2026, 2028])})`);
    expect(text).toMatch(/COLLECT g\d+ = v\d+, k\d+ = \(IS_STRING/);
    expect(text).toMatch(/SORT \(v\d+ == null \? \[7, null\][\s\S]* DESC\nLIMIT @value\d+, @value\d+/);
    expect(Object.values(c.query.bindVars)).toEqual(expect.arrayContaining([1, 5]));
  });

  it('integer division is chosen by the form of the operands, as the evaluator chooses it', () => {
    expect(compile('RETURN 7 / 2 AS x').query.query).toContain('== FLOOR(');
    expect(compile('RETURN 7 / 2.0 AS x').query.query).toMatch(/\? \(false\)|: false \?|false \? /);
  });

  it('a property no label has reads null, without its name in the query', () => {
    const c = compile('MATCH (r:Region) RETURN r.notAProperty AS x');
    expect(c.query.query).not.toContain('notAProperty');
    expect(c.query.query).toContain('RETURN [v');
  });
});

describe('compileCypher: the key’s view on every node the query binds', () => {
  const QUERIES = [
    'MATCH (r:Region) RETURN r.slug',
    'MATCH (n) RETURN count(n)',
    'MATCH (c:Candidacy)-[:FOR_CONTEST]->(k:Contest)-[:IN_REGION]->(r:Region) RETURN c.name, k.name, r.name',
    'MATCH (a)--(b) RETURN count(*)',
    "MATCH (r:Region {slug: 'region:co'})-[:WITHIN|OVERLAPS*0..3]-(s) RETURN s.slug",
    'MATCH (c:Candidacy) OPTIONAL MATCH (x:Result)-[:RESULT_FOR]->(c) RETURN c.slug, x.votes',
    'MATCH (c:Candidacy) WITH c MATCH (c)-[:OF_PARTY]->(p) RETURN p.name',
    'MATCH (p:Person)-[:HOLDS]->(o:Office), (o)-[:SERVES_REGION]->(r) RETURN count(*)',
    'UNWIND [1, 2] AS x MATCH (e:Election) RETURN x, e.slug',
  ];

  it.each(QUERIES)('%s', (query) => {
    const c = compile(query);
    const text = c.query.query;
    const nodesBind = bindOf(c, 'graph_nodes').replace('@', '@@').replace('@@@', '@@');
    const states = bindOf(c, ['co', '']);
    const tiers = bindOf(c, ['county', '']);
    const floor = bindOf(c, 0.4);
    const visible = (v: string) =>
      `FILTER (${v}.state IN ${states} AND ${v}.tier IN ${tiers} AND (${v}.kind != "candidacy" OR ${v}.data.confidence >= ${floor}))`;
    // Every node read from the collection is filtered right after it is read…
    const loops = [...text.matchAll(new RegExp(`FOR (v\\d+) IN ${nodesBind.replace('@@', '@@')}\\n(.*)`, 'g'))];
    const traversals = [...text.matchAll(/FOR (v\d+), (e\d+), (p\d+) IN [^\n]*\n\s*PRUNE ([^\n]*)/g)];
    expect(loops.length + traversals.length).toBeGreaterThan(0);
    for (const [, v] of loops) expect(text).toContain(visible(v!));
    // …and every node along a path, the ends included, is filtered inside the traversal.
    for (const [, v, , p, prune] of traversals) {
      expect(prune).toContain(`${v}.state IN ${states}`);
      expect(text).toContain(
        `FILTER LENGTH(${p}.vertices[* FILTER NOT (CURRENT.state IN ${states} AND CURRENT.tier IN ${tiers} AND (CURRENT.kind != "candidacy" OR CURRENT.data.confidence >= ${floor}))]) == 0`,
      );
    }
    // Every node a pattern binds is one of those: count the node patterns the query names.
    const nodePatterns = parseQuery(query)
      .clauses.flatMap((cl) => (cl.kind === 'match' ? cl.patterns : []))
      .reduce((n, p) => n + p.nodes.length, 0);
    const bound = parseQuery(query)
      .clauses.flatMap((cl) => (cl.kind === 'match' ? cl.patterns : []))
      .flatMap((p) => p.nodes)
      .filter((n, i, all) => n.variable !== undefined && all.findIndex((m) => m.variable === n.variable) !== i).length;
    const filteredReads = (text.match(/FILTER \(v\d+\.state IN /g) ?? []).length;
    // (A variable named again is the node already read: matched from it, not read again.)
    expect(filteredReads).toBe(nodePatterns - bound);
  });

  it('a key that sees everything reads without a filter, min_confidence 0 asking nothing', () => {
    const text = compile('MATCH (r:Region) RETURN r.slug', {}, principal([]), 0).query.query;
    expect(text).toContain('FILTER true');
    expect(text).not.toContain('.state IN');
  });
});

describe('compileCypher: nothing the caller wrote reaches the query text', () => {
  /** Text that would break out of a quoted string or a comment, or be a keyword, if it were spliced in. */
  const hostile = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom(
      "'",
      '"',
      '`',
      '*/',
      '/*',
      '//',
      '\\',
      '\u0000',
      'FILTER',
      'RETURN 1 //',
      'REMOVE',
      '@@value0',
      '}',
      ')',
    ),
  );
  const marked = fc.array(hostile, { minLength: 1, maxLength: 4 }).map((parts) => `Zq${parts.join('')}Zq`);

  const cypherString = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const cypherName = (s: string) => `\`${s.replaceAll('`', '``')}\``;

  it('parameter values, string literals, variable names, aliases and map keys are bound or renamed', () => {
    fc.assert(
      fc.property(marked, marked, marked, marked, (lit, param, name, key) => {
        const query = [
          `MATCH (${cypherName(name)}:Region {name: ${cypherString(lit)}})-[h:WITHIN {${cypherName(key)}: $p}]->(s)`,
          `WHERE ${cypherName(name)}.fips STARTS WITH ${cypherString(lit)} OR $p IN [${cypherString(lit)}]`,
          `RETURN ${cypherName(name)}.name AS ${cypherName(name)}, {${cypherName(key)}: ${cypherString(lit)}} AS m, h[${cypherString(key)}] AS k`,
        ].join(' ');
        const c = compile(query, { p: param });
        expect(c.query.query).not.toContain('Zq');
        expect(c.columns[0]).toBe(name);
        const bound = JSON.stringify(c.query.bindVars);
        expect(bound).toContain(JSON.stringify(lit));
        expect(bound).toContain(JSON.stringify(param));
        // The text is the same whatever the values: only the bind variables change.
        const neutral = compile(query.replaceAll(cypherString(lit), "'plain'"), { p: 'other' });
        const shape = (t: string) => t.replace(/@value\d+/g, '@v');
        expect(shape(c.query.query)).toBe(shape(neutral.query.query));
      }),
      { numRuns: 150, seed: 24 },
    );
  });

  it('depths and SKIP/LIMIT counts are bound too', () => {
    const c = compile('MATCH (r:Region)-[:WITHIN*2..7]->(s) RETURN s.slug SKIP 13 LIMIT 17');
    expect(c.query.query).not.toMatch(/\b(7|13|17)\b/);
  });
});

describe('compileCypher: refusals', () => {
  it('a map literal with a key ArangoDB reserves is unsupported_cypher, naming it', () => {
    expect(() => compile('RETURN {_id: 1} AS m')).toThrow(UnsupportedCypherError);
    expect(() => compile('RETURN {`_from`: 1} AS m')).toThrow(/_from/);
  });

  it('a parameter holding such a map, at any depth, is refused too', () => {
    expect(() => compile('RETURN $m AS m', { m: [{ ok: { _id: 'graph_nodes/x' } }] })).toThrow(UnsupportedCypherError);
  });

  it('a missing parameter, an aggregate in WHERE, a negative LIMIT: the evaluator’s invalid_parameter', () => {
    expect(() => compile('MATCH (r:Region) WHERE r.slug = $nope RETURN r')).toThrow(InvalidParameterError);
    expect(() => compile('MATCH (r:Region) WHERE count(r) > 1 RETURN r')).toThrow(/may only appear in WITH or RETURN/);
    expect(() => compile('MATCH (r:Region) RETURN r LIMIT -1')).toThrow(/LIMIT takes a non-negative integer/);
    expect(() => compile('MATCH (r:Region) RETURN r.slug AS x, r.name AS x')).toThrow(/projected twice/);
    expect(() => compile('RETURN nope AS x')).toThrow(/Variable `nope` is not defined/);
  });

  it('values AQL cannot hold as openCypher does fail inside the query as unsupported_cypher', () => {
    const text = compile('RETURN 1.5 / 0 AS x').query.query;
    expect(text).toContain('FAIL(@value');
    const c = compile('RETURN 1.5 / 0 AS x');
    expect(Object.values(c.query.bindVars)).toContain(
      'civicgraph-unsupported:a number result with no finite value (an infinity or NaN), which ArangoDB cannot hold',
    );
  });
});
