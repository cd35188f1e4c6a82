/**
 * Two executors, one semantics: the same Cypher queries, on the same graph (the demo
 * dataset over the test regions), asked of the evaluator on the embedded store and of the
 * AQL compiler on ArangoDB (GraphStore.cypher), for a key that sees everything and for a
 * scoped one (one state, two tiers, no contact, a min_confidence that leaves some candidacies out).
 * Answers are compared as multisets (as sequences when the query orders totally); a
 * refusal must be the same refusal.
 *
 * The embedded half always runs: every query answers (or is refused as the key's
 * entitlements require), and the entitlement checks hold. The ArangoDB half follows the
 * conformance suite's rule (store/arango/arango-test-target.ts): ARANGO_URL when set (it
 * must answer), else arangodb:3.12 under testcontainers when Docker answers, else a loud
 * skip. Run it with:
 *   ARANGO_URL=http://127.0.0.1:8529 npx vitest run services/graph/src/cypher/two-executors.int.test.ts
 */
import { randomBytes } from 'node:crypto';
import { CivicError, EntitlementRequiredError } from '@civicgraph/kit';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { Database } from 'arangojs';
import type { EdgeCollection } from 'arangojs/collections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, type Case } from '../../test/cypher-corpus.js';
import { TEST_DEMO_REGIONS } from '../../test/demo-regions.js';
import { difference } from '../../test/same-answer.js';
import { generateDemo } from '../demo/generate.js';
import { GraphWriter } from '../domain/writer.js';
import { ArangoGraphStore } from '../store/arango/arango-graph-store.js';
import { resolveArangoTestTarget, type ArangoTestServer } from '../store/arango/arango-test-server.js';
import { ARANGO_RUN_HINT } from '../store/arango/arango-test-target.js';
import type { GraphStore } from '../store/graph-store.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { compileCypher } from './aql/compile.js';
import { parseQuery } from './build-ast.js';
import { runCypher, type CypherAnswer } from './execute.js';

function key(plan: Plan, entitlements: Principal['entitlements']): Principal {
  return {
    keyId: 'key_two_executors',
    environment: Environment.ENVIRONMENT_TEST,
    plan,
    rateLimitPerMinute: 6000,
    pinnedVersion: '',
    entitlements,
  };
}

interface Viewer {
  name: string;
  principal: Principal;
  minConfidence: number;
}

const VIEWERS: Viewer[] = [
  {
    name: 'everything',
    principal: key(Plan.PLAN_ENTERPRISE, { contact: true, geography: true, states: [], tiers: [] }),
    minConfidence: 0,
  },
  {
    name: 'scoped',
    principal: key(Plan.PLAN_BUILD, { contact: false, geography: false, states: ['co'], tiers: ['federal', 'county'] }),
    minConfidence: 0.1,
  },
];

/**
 * Beyond the oracle's corpus: what kuzu cannot be asked but both executors must answer
 * alike: nodes and relationships as values, openCypher's null and type rules, integer
 * division, string order by code unit, functions kuzu lacks, list comparison.
 */
const BEYOND_THE_ORACLE: Case[] = [
  { query: "MATCH (r:Region {slug: 'region:co'}) RETURN r" },
  { query: 'MATCH (c:Candidacy)-[f:FOR_CONTEST]->(k:Contest) RETURN c, f, k LIMIT 3' },
  { query: 'MATCH (r:Region)-[w:WITHIN*1..2]->(s:Region) RETURN r.slug, w, s.slug' },
  { query: "MATCH (s:Region)-[w:WITHIN*1..2]->(r:Region {slug: 'region:co'}) RETURN s.slug, w" },
  // Refused alike: a list comprehension is outside the subset (build-ast.ts).
  { query: 'RETURN [x IN [1] | x] AS y' },
  { query: 'MATCH (n) RETURN labels(n) AS l, count(*) AS n' },
  { query: 'MATCH ()-[r]->() RETURN type(r) AS t, count(*) AS n' },
  {
    query: 'MATCH (x:Result) RETURN x.votes / 7 AS q, x.votes / 7.0 AS f, x.share / 2 AS h, x.votes % 7 AS m LIMIT 20',
  },
  {
    query:
      "RETURN 'B' < 'a' AS codeUnits, 'a' < 'b' AS plain, 1 < 'a' AS mixed, null = null AS nulls, [1, null] = [1, null] AS lists",
  },
  { query: 'RETURN [1, 2] < [1, 3] AS lt, [1, 2] < [1] AS longer, [1] = [1.0] AS numbers, {a: 1} = {a: 1} AS maps' },
  { query: 'RETURN 3 IN [1, null] AS unknown, 1 IN [1, null] AS found, null IN [] AS empty, NOT null AS n' },
  {
    query:
      "RETURN toInteger('42') AS i, toFloat(' 2.5 ') AS f, toInteger('x') AS bad, toString(12) AS s, size('abc') AS n",
  },
  {
    query:
      "RETURN 'abc' CONTAINS '' AS empty, 'abc' STARTS WITH 'ab' AS s, 'abc' ENDS WITH 'bc' AS e, 'abc' ENDS WITH 'abcd' AS long",
  },
  { query: 'RETURN 2 ^ 10 AS p, -(3) AS n, abs(-2) AS a, round(2.5) AS r, coalesce(null, 1) AS c, [1, 2] + 3 AS l' },
  { query: 'MATCH (c:Candidacy) RETURN c.name ORDER BY c.name DESC LIMIT 5', ordered: true },
  { query: 'MATCH (c:Candidacy) WITH c.state AS s, collect(DISTINCT c.tier) AS tiers RETURN s, size(tiers) AS n' },
  { query: 'MATCH (n) RETURN min(n.name) AS first, max(n.name) AS last' },
  { query: 'MATCH (c:Candidacy) RETURN c.campaignEmails AS emails, c.campaignTeam AS team LIMIT 10' },
  { query: 'MATCH (p:Person) RETURN p.contactEmails, p.contactOffices LIMIT 10' },
  { query: 'UNWIND [3, 1, null, 2] AS x RETURN x ORDER BY x', ordered: true },
  { query: 'UNWIND [3, 1, null, 2] AS x RETURN x ORDER BY x DESC', ordered: true },
  { query: "UNWIND [1, 'a', true, [1], null] AS x RETURN x ORDER BY x", ordered: true },
  { query: 'MATCH (a:Region)-[:WITHIN]->(b:Region), (b)<-[:WITHIN]-(c:Region) RETURN a.slug, c.slug' },
  {
    query:
      'MATCH (k:Contest) RETURN count(*) AS n, sum(k.seats) AS seats, avg(k.year) AS year, collect(k.slug)[0] IS NULL AS none',
  },
  {
    query:
      'MATCH (k:Contest) WHERE k.year > 3000 RETURN count(*) AS n, sum(k.seats) AS seats, collect(k.slug) AS slugs',
  },
  { query: 'RETURN 7 / 0 AS boom' },
  {
    query:
      "MATCH (r:Region) RETURN r.name + 1 AS concatenated, r['name'] AS indexed, {k: r.name}['k'] AS viaMap LIMIT 3",
  },
];

const CASES: Case[] = [...CORPUS, ...BEYOND_THE_ORACLE];

type Outcome = { rows: unknown[][]; columns: string[] } | { refused: string };

async function ask(store: GraphStore, v: Viewer, c: Case): Promise<Outcome> {
  try {
    const a: CypherAnswer = await runCypher(store, v.principal, {
      query: c.query,
      parameters: c.parameters ?? {},
      minConfidence: v.minConfidence,
    });
    return { rows: a.rows, columns: a.columns };
  } catch (err) {
    if (err instanceof CivicError) return { refused: err.type };
    throw err;
  }
}

/** The demo graph, written through the store port (so both stores hold the same documents). */
async function loadDemo(store: GraphStore): Promise<void> {
  const writer = new GraphWriter({ store, env: 'test', now: () => new Date('2026-11-22T12:00:00Z') });
  for (const batch of generateDemo({ regions: TEST_DEMO_REGIONS, today: '2026-11-22' })) await writer.apply(batch);
}

/** The entitlement behaviour every executor must show, on a store holding the demo graph. */
function describeEntitlements(name: string, store: () => GraphStore): void {
  describe(`${name}: entitlements inside the query`, () => {
    const scoped = VIEWERS[1]!;
    const run = (q: string) => runCypher(store(), scoped.principal, { query: q, parameters: {}, minConfidence: 0.1 });

    it('out-of-scope nodes cannot be matched, anchors, far ends and path nodes alike', async () => {
      for (const q of [
        'MATCH (n) RETURN DISTINCT n.state AS s, n.tier AS t',
        'MATCH (a)--(n) RETURN DISTINCT n.state AS s, n.tier AS t',
        "MATCH (r:Region {slug: 'region:co'})-[*0..3]-(n) RETURN DISTINCT n.state AS s, n.tier AS t",
      ]) {
        const { rows } = await run(q);
        expect(rows.length, q).toBeGreaterThan(0);
        for (const [s, t] of rows) {
          expect(['co', ''], q).toContain(s);
          expect(['federal', 'county', ''], q).toContain(t);
        }
      }
      expect((await run("MATCH (r:Region {slug: 'region:de'}) RETURN r.slug")).rows).toEqual([]);
    });

    it('candidacies below min_confidence do not exist', async () => {
      const { rows } = await run('MATCH (c:Candidacy) RETURN min(c.confidence) AS lowest, count(*) AS n');
      expect(rows[0]![0] as number).toBeGreaterThanOrEqual(0.1);
    });

    it('naming a contact property without contact is entitlement_required; a whole node omits them', async () => {
      await expect(run('MATCH (c:Candidacy) RETURN c.campaignEmails')).rejects.toBeInstanceOf(EntitlementRequiredError);
      const { rows } = await run('MATCH (c:Candidacy) RETURN c LIMIT 1');
      expect(Object.keys(rows[0]![0] as object)).not.toContain('campaignEmails');
      expect(rows[0]![0]).toMatchObject({ _label: 'Candidacy' });
    });
  });
}

describe('the embedded store (the evaluator)', () => {
  const memory = new MemoryGraphStore();
  beforeAll(() => loadDemo(memory));

  it.each(CASES.flatMap((c) => VIEWERS.map((v) => ({ ...c, viewer: v }))))('[$viewer.name] $query', async (c) => {
    const out = await ask(memory, c.viewer, c);
    if ('refused' in out) {
      // The only refusals in the corpus: contact properties without contact, and the planned ones.
      expect(['entitlement_required', 'invalid_parameter', 'unsupported_cypher']).toContain(out.refused);
    } else if (c.viewer.name === 'everything' && CORPUS.some((k) => k.query === c.query)) {
      // Every corpus query is written to find something (the oracle checks the same).
      expect(out.rows.length).toBeGreaterThan(0);
    }
  });

  describeEntitlements('embedded', () => memory);

  // Runs here, without a server: every query the evaluator answers compiles to AQL (what the
  // ArangoDB half then runs), and every query it refuses before running is refused alike.
  it.each(CASES.flatMap((c) => VIEWERS.map((v) => ({ ...c, viewer: v }))))(
    '[$viewer.name] compiles to AQL: $query',
    async (c) => {
      const evaluated = await ask(memory, c.viewer, c);
      const offline = new Database({ url: 'http://127.0.0.1:1' });
      let compiled: string;
      try {
        const query = parseQuery(c.query);
        compiled = compileCypher(query, {
          nodes: offline.collection('graph_nodes'),
          edges: offline.collection('graph_edges') as unknown as EdgeCollection,
          principal: c.viewer.principal,
          minConfidence: c.viewer.minConfidence,
          parameters: c.parameters ?? {},
          rowCap: 10_001,
        }).query.query;
      } catch (err) {
        if (!(err instanceof CivicError)) throw err;
        // Refused before running: the evaluator refuses it too (parse errors, parameters, SKIP/LIMIT).
        expect(evaluated).toEqual({ refused: err.type });
        return;
      }
      expect(compiled).toMatch(/RETURN \[.*\]$/);
    },
  );
});

const TITLE = 'ArangoDB (the AQL compiler) answers as the embedded store';
const target = await resolveArangoTestTarget();
if (target.kind === 'skip') {
  const hint = `ARANGO_URL=http://127.0.0.1:8529 npx vitest run services/graph/src/cypher/two-executors.int.test.ts`;
  const message = target.message
    .replace('the ArangoDB GraphStore conformance suite', 'the ArangoDB half of the two-executor Cypher suite')
    .replace(ARANGO_RUN_HINT, hint);
  console.warn(`\n⚠️  ${message}\n`);
  describe.skip(TITLE, () => {
    it('answers every query as the evaluator does', () => undefined);
  });
} else if (target.kind === 'fail') {
  const { message } = target;
  describe(TITLE, () => {
    it('reaches the ArangoDB that ARANGO_URL names', () => {
      throw new Error(message);
    });
  });
} else {
  describeOnServer(target.server);
}

function describeOnServer(server: ArangoTestServer): void {
  describe(TITLE, () => {
    const database = `civic_test_${randomBytes(6).toString('hex')}`;
    const memory = new MemoryGraphStore();
    let arango: ArangoGraphStore;

    beforeAll(async () => {
      arango = await ArangoGraphStore.connect({
        url: server.url,
        database,
        username: server.username,
        password: server.password,
      });
      await Promise.all([loadDemo(memory), loadDemo(arango)]);
    }, 120_000);

    afterAll(async () => {
      await arango?.close();
      const system = new Database({ url: server.url, auth: { username: server.username, password: server.password } });
      await system.dropDatabase(database).catch(() => undefined);
      system.close();
      await server.stop();
    });

    it.each(CASES.flatMap((c) => VIEWERS.map((v) => ({ ...c, viewer: v }))))(
      '[$viewer.name] $query',
      async (c) => {
        const [ours, theirs] = await Promise.all([ask(memory, c.viewer, c), ask(arango, c.viewer, c)]);
        if ('refused' in ours || 'refused' in theirs) {
          expect(theirs, c.query).toEqual(ours);
          return;
        }
        expect(theirs.columns).toEqual(ours.columns);
        const what = difference(ours.rows, theirs.rows, {
          ordered: c.ordered === true,
          unorderedLists: /collect\s*\(/i.test(c.query),
        });
        expect(
          what,
          `${c.query}\nembedded: ${JSON.stringify(ours.rows).slice(0, 3000)}\narango:   ${JSON.stringify(theirs.rows).slice(0, 3000)}`,
        ).toBeUndefined();
      },
      30_000,
    );

    describeEntitlements('arangodb', () => arango);
  });
}
