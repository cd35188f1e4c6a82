/**
 * The differential test of the Cypher engine: the same graph (the demo dataset over five
 * regions) in civicgraph's MemoryGraphStore and in kuzu, an embedded Cypher database from npm
 * (services/graph/test/kuzu-oracle.ts), and the same queries asked of both: a hand-written
 * corpus over the whole subset, and 200 queries generated from the schema (fast-check, fixed
 * seed). Rows are compared as multisets, or as sequences when the query orders them totally;
 * numbers within a relative 1e-9; collect()ed lists as multisets.
 *
 * The corpus found three civicgraph bugs, fixed with their unit tests in match.test.ts: a
 * variable length from 0 left out the path of no relationships, a slug named twice in a
 * WHERE bound its node twice, and inline relationship properties could not name variables.
 *
 * Corners where kuzu and openCypher legitimately differ, which the queries stay out of:
 * - Relationship uniqueness across a MATCH: openCypher never binds one relationship twice in
 *   a MATCH, kuzu does (`(a)-[:T]->(k)<-[:T]-(b)` gives a = b through the same edge). Queries
 *   with two relationship patterns use different types, separate MATCH clauses, or a WHERE
 *   that tells the ends apart. Within a variable-length pattern the oracle asks kuzu for TRAIL
 *   semantics (its default is a walk); see asKuzu.
 * - Aggregates over no values: openCypher's sum() is 0 and collect() is [], kuzu's are null.
 *   Generated queries wrap them in coalesce(); the corpus sums and collects non-empty groups.
 * - Numbers: civicgraph has one number type (README: a whole-valued float counts as an
 *   integer, so `3.0 / 2` is 1, not openCypher's 1.5, and `2 ^ 3 / 3` is 2); kuzu divides by
 *   zero differently (null for floats). No query divides or raises to a power.
 * - Lists: kuzu indexes from 1 (openCypher from 0), says `[1, null] = [1, null]` is true
 *   (openCypher: null), and has no min()/max() over lists. No query indexes, compares or
 *   orders lists, or takes their min or max.
 * - `'abc' CONTAINS ''` is false in kuzu (true in openCypher): text tests use non-empty pieces.
 * - Comparing values of different types is an error in kuzu (null in openCypher): values are
 *   always of the property's type. So is chaining comparisons (`1 < x < 3`).
 * - `x IN [.., null]` is false in kuzu when x is not found (openCypher: null): IN lists hold
 *   values from the graph, never null. UNWIND of a value that is not a list is an error in
 *   kuzu (civicgraph, as Neo4j: one row): only lists are unwound.
 * - An empty list parameter reaches kuzu as null (its Node binding): list parameters are not
 *   empty.
 * - Functions kuzu lacks or reads differently (type(), labels(), toString(), toInteger(),
 *   toFloat(), one-argument round()): not used. Text is ASCII (kuzu orders strings by UTF-8
 *   bytes, JavaScript by UTF-16 units; they differ only past the Basic Multilingual Plane).
 * - Nodes and relationships as values (kuzu's carry internal ids): queries return properties.
 * - A kuzu 0.11 bug: grouping, an aggregate listed after a DISTINCT one comes out 0 or null
 *   (`RETURN k, count(DISTINCT x), count(*)`), and with nodes aggregated may end the process.
 *   DISTINCT aggregates are listed last.
 * - `end` is a keyword to kuzu: generated queries write every property name in backticks.
 */
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, type Catalogue } from '../../test/graph-catalogue.js';
import { KuzuOracle } from '../../test/kuzu-oracle.js';
import { generatedQuery } from '../../test/query-arbitrary.js';
import { readGraph } from '../../test/read-graph.js';
import { difference, type Comparison } from '../../test/same-answer.js';
import { TEST_DEMO_REGIONS } from '../../test/demo-regions.js';
import { generateDemo } from '../demo/generate.js';
import { GraphWriter } from '../domain/writer.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { runCypher } from './execute.js';

const REGIONS = TEST_DEMO_REGIONS;

/** Sees everything: no state or tier scope, contact properties included. */
const ENTERPRISE: Principal = {
  keyId: 'key_oracle',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  rateLimitPerMinute: 6000,
  pinnedVersion: '',
  entitlements: { contact: true, geography: true, states: [], tiers: [] },
};

interface Case {
  query: string;
  parameters?: Record<string, unknown>;
  /** ORDER BY over a total order: the sequence is compared. */
  ordered?: boolean;
}

const CORPUS: Case[] = [
  // MATCH: labels, inline properties, relationships typed, directed either way, undirected
  { query: 'MATCH (r:Region) RETURN r.slug, r.name, r.level, r.fips, r.ocdId, r.population' },
  { query: "MATCH (c:Contest {level: 'county', year: 2028}) RETURN c.slug, c.type, c.date, c.seats, c.special" },
  { query: 'MATCH (c:Candidacy)-[:FOR_CONTEST]->(k:Contest) RETURN k.slug AS contest, count(*) AS n' },
  {
    query:
      'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) RETURN k.level, avg(c.confidence) AS mean, min(c.confidence), max(c.confidence)',
  },
  { query: 'MATCH (o:Office)-[:SERVES_REGION]-(r:Region) RETURN o.name, o.tier, r.name' },
  { query: 'MATCH (n)-[:SUPPORTED_BY]->(p:Provenance) RETURN p.slug, p.method, count(n) AS supported' },
  { query: "MATCH (p:Person)-[h:HOLDS {party: 'party:republican'}]->(o:Office) RETURN p.name, h.start, o.name" },
  // Inline relationship properties naming an earlier variable: civicgraph refused them (fixed; match.test.ts).
  {
    query:
      'MATCH (p:Person)-[h:HOLDS]->(:Office) MATCH (q:Person)-[:HOLDS {party: h.party}]->(o:Office) RETURN p.name, q.name, o.name',
  },
  { query: 'MATCH (r:Region)-[:WITHIN|OVERLAPS]->(s:Region) RETURN r.slug, s.slug' },
  // several patterns and longer chains
  {
    query:
      "MATCH (c:Candidacy)-[:FOR_CONTEST]->(k:Contest), (k)-[:IN_REGION]->(r:Region) WHERE r.level = 'state' RETURN c.name, k.name, r.name",
  },
  {
    query:
      'MATCH (p:Person)<-[:OF_PERSON]-(c:Candidacy)-[:OF_PARTY]->(y:Party) RETURN y.abbreviation AS party, count(*) AS candidacies, count(DISTINCT p.slug) AS people',
  },
  {
    query:
      'MATCH (x:Result)-[:RESULT_FOR]->(c:Candidacy)-[:FOR_CONTEST]->(k:Contest)-[:IN_ELECTION]->(e:Election) RETURN e.slug, k.slug, sum(x.votes) AS votes, max(x.totalVotes) AS total, avg(x.share) AS share',
  },
  {
    query:
      'MATCH (c1:Candidacy)-[:FOR_CONTEST]->(k:Contest)<-[:FOR_CONTEST]-(c2:Candidacy) WHERE c1.slug < c2.slug RETURN k.slug, count(*) AS pairs',
  },
  {
    query:
      'MATCH (c1:Candidacy)-[:FOR_CONTEST]->(k:Contest) MATCH (c2:Candidacy)-[:FOR_CONTEST]->(k) RETURN k.level, count(*) AS pairs',
  },
  // bounded variable-length paths
  { query: 'MATCH (r:Region)-[:WITHIN*1..2]->(s:Region) RETURN r.slug, s.slug' },
  {
    query:
      "MATCH (r:Region {slug: 'region:co-cd-1'})-[:WITHIN|OVERLAPS*1..3]-(s:Region) RETURN s.slug, count(*) AS paths",
  },
  { query: 'MATCH (c:Candidacy)-[*1..2]->(r:Region) RETURN r.slug, count(*) AS n' },
  { query: "MATCH (c:Candidacy {state: 'de'})-[:FOR_CONTEST*2..2]-(d:Candidacy) RETURN c.slug, count(d) AS rivals" },
  { query: "MATCH (s:Region)-[:WITHIN*1..2]->(r:Region {slug: 'region:co'}) RETURN s.slug" },
  // A path of no relationships: civicgraph left it out (fixed; match.test.ts).
  { query: 'MATCH (r:Region)-[:WITHIN*0..1]->(s:Region) RETURN r.slug, s.slug' },
  // OPTIONAL MATCH
  { query: "OPTIONAL MATCH (r:Region {slug: 'region:nowhere'}) RETURN r.slug" },
  {
    query:
      'MATCH (c:Candidacy) OPTIONAL MATCH (c)-[:OF_PARTY]->(y:Party) OPTIONAL MATCH (x:Result)-[:RESULT_FOR]->(c) RETURN y.abbreviation, count(x), count(*)',
  },
  { query: 'MATCH (c:Candidacy) OPTIONAL MATCH (x:Result)-[:RESULT_FOR]->(c) RETURN c.slug, x.votes, x.winner' },
  {
    query:
      "MATCH (o:Office) OPTIONAL MATCH (p:Person)-[h:HOLDS]->(o) WHERE h.start >= '2027-01-01' RETURN o.slug, p.name, h.start",
  },
  {
    query:
      "MATCH (k:Contest) OPTIONAL MATCH (k)<-[:FOR_CONTEST]-(c:Candidacy {filingStatus: 'WITHDRAWN'}) RETURN k.slug, count(c) AS withdrawn",
  },
  // WHERE: comparisons, logic, IN, text tests, nulls
  { query: "MATCH (c:Contest) WHERE c.year = 2028 AND c.type = 'primary' RETURN c.name, c.state" },
  {
    query:
      "MATCH (c:Candidacy) WHERE (c.isIncumbent XOR c.filingStatus = 'QUALIFIED') AND NOT c.ballotAccess = 'DENIED' RETURN c.slug, c.isIncumbent",
  },
  { query: 'MATCH (x:Result) WHERE x.share > 0.3 AND x.share <= 0.6 OR x.votes < 20000 RETURN x.slug, x.share' },
  {
    query:
      "MATCH (p:Position) WHERE p.issue IN ['housing', 'water'] AND p.stance <> 'undecided' RETURN p.issue, p.stance, count(*) AS n",
  },
  { query: 'MATCH (e:Election) WHERE e.state IN $states RETURN e.slug, e.date', parameters: { states: ['co', 'xx'] } },
  { query: "MATCH (r:Region) WHERE r.ocdId STARTS WITH 'ocd-division/country:us/state:co' RETURN r.slug" },
  {
    query: "MATCH (p:Person) WHERE p.name ENDS WITH 'Fairbanks' OR p.name CONTAINS 'Vale' RETURN p.name, p.familyName",
  },
  { query: 'MATCH (r:Region) WHERE r.fips IS NULL OR r.population IS NOT NULL RETURN r.slug' },
  { query: 'MATCH (x:Result) WHERE x.winner IS NOT NULL AND NOT x.certified = false RETURN x.winner, count(*) AS n' },
  {
    query:
      "MATCH (c:Candidacy) WHERE 'hello@dana-everly.example.org' IN c.campaignEmails RETURN c.slug, c.campaignPhones",
  },
  { query: "MATCH (e:Election) WHERE e.date >= '2028-01-01' AND e.date < '2028-07-01' RETURN e.slug" },
  { query: "MATCH (e:Election) WHERE e.state = '' RETURN e.slug" },
  // A slug named twice binds its node once: civicgraph bound it twice (fixed; match.test.ts).
  { query: "MATCH (p:Party) WHERE p.slug IN ['party:green', 'party:green', 'party:democratic'] RETURN p.slug" },
  { query: 'MATCH (x:Result) WHERE -x.votes < -150000 RETURN count(*)' },
  // parameters
  {
    query: 'MATCH (c:Contest) WHERE c.year >= $from AND c.level = $level RETURN c.slug, c.year',
    parameters: { from: 2027, level: 'state' },
  },
  { query: 'MATCH (c:Candidacy) WHERE c.confidence > $floor RETURN count(*)', parameters: { floor: 0.1 } },
  // list and map literals, expressions
  {
    query:
      'MATCH (p:Party) RETURN p.abbreviation, [p.name, p.slug] AS pair, {name: p.name, code: p.abbreviation} AS party',
  },
  { query: "MATCH (p:Party) RETURN p.abbreviation + ':' + p.name AS label, size(p.name) AS length" },
  { query: "MATCH (p:Party) RETURN toLower(p.abbreviation), toUpper(p.name), coalesce(p.abbreviation, 'none')" },
  { query: 'MATCH (x:Result) RETURN x.slug, x.votes * 2 + 1 AS v, x.totalVotes - x.votes AS others' },
  { query: 'MATCH (x:Result) RETURN max(x.votes) - min(x.votes) AS spread, count(*) * 2 AS doubled' },
  // WITH, WHERE after aggregation, UNWIND
  { query: 'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) WITH k, count(c) AS n WHERE n > 3 RETURN k.slug, n' },
  {
    query:
      'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) WITH k, count(c) AS n WHERE n >= 2 MATCH (k)-[:IN_REGION]->(r:Region) RETURN r.level, sum(n) AS candidacies',
  },
  {
    query:
      'MATCH (c:Candidacy) WITH c.state AS state, c.confidence AS confidence WHERE confidence > 0.1 RETURN state, count(*)',
  },
  { query: 'MATCH (c:Candidacy) WITH DISTINCT c.state AS s RETURN s' },
  { query: "UNWIND ['co', 'de', 'zz'] AS s MATCH (e:Election {state: s}) RETURN s, count(*) AS n" },
  { query: 'MATCH (c:Candidacy) UNWIND c.campaignEmails AS email RETURN count(email), count(DISTINCT email)' },
  { query: 'MATCH (y:Party) WITH collect(y.abbreviation) AS codes UNWIND codes AS code RETURN code' },
  {
    query: 'UNWIND $years AS y MATCH (c:Contest {year: y}) RETURN y, count(c)',
    parameters: { years: [2026, 2028, 2030] },
  },
  // RETURN DISTINCT, aliases, aggregates
  { query: 'MATCH (c:Candidacy) RETURN DISTINCT c.filingStatus, c.ballotAccess' },
  { query: 'MATCH (o:Office) RETURN o.level AS level, o.tier AS tier, count(*) AS offices' },
  { query: 'MATCH (x:Result) RETURN count(*), count(x.winner), count(DISTINCT x.party), count(DISTINCT x.certified)' },
  { query: 'MATCH (e:Election) RETURN e.state, min(e.date) AS first, max(e.date) AS last, max(e.name) AS name' },
  { query: 'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) RETURN k.slug, collect(c.name) AS names' },
  { query: 'MATCH (c:Candidacy)-[:OF_PARTY]->(y:Party) RETURN c.state, collect(DISTINCT y.abbreviation) AS parties' },
  {
    query:
      'MATCH (c:Contest) WHERE c.year > 3000 RETURN count(*), count(c.slug), min(c.year), max(c.name), avg(c.seats)',
  },
  {
    query:
      'MATCH (p:Party)<-[:OF_PARTY]-(c:Candidacy)-[:FOR_CONTEST]->(k:Contest) RETURN p.slug, size(collect(c)) AS candidacies, count(DISTINCT k) AS contests',
  },
  { query: "MATCH (c:Candidacy) RETURN c.state + '/' + c.tier AS scope, count(*) AS n" },
  { query: 'MATCH (x:Result) RETURN x.votes % 7 AS rest, count(*) AS n' },
  { query: 'MATCH (c:Contest) WHERE NOT c.special RETURN c.special, sum(c.seats) AS seats, avg(c.year) AS year' },
  { query: 'MATCH (x:Result) RETURN x.certified, x.winner, sum(x.share) AS share, min(x.share), max(x.winner)' },
  // ORDER BY (total), SKIP, LIMIT
  { query: 'MATCH (c:Candidacy) RETURN c.slug ORDER BY c.slug SKIP 5 LIMIT 10', ordered: true },
  { query: 'MATCH (p:Position) RETURN p.issue AS issue, count(*) AS n ORDER BY n DESC, issue LIMIT 5', ordered: true },
  { query: 'MATCH (r:Region) RETURN r.slug AS slug, r.fips AS fips ORDER BY fips DESC, slug', ordered: true },
  {
    query: 'MATCH (c:Contest) RETURN c.state AS state, c.year AS year, count(*) AS n ORDER BY state, year DESC',
    ordered: true,
  },
  {
    query: 'MATCH (x:Result) RETURN x.slug AS slug, x.share AS share ORDER BY share DESC, slug SKIP $skip LIMIT $limit',
    parameters: { skip: 2, limit: 7 },
    ordered: true,
  },
  { query: 'MATCH (c:Candidacy) WITH c ORDER BY c.confidence DESC, c.slug LIMIT 5 RETURN c.slug, c.confidence' },
  { query: 'MATCH (c:Candidacy) RETURN c.name ORDER BY c.confidence DESC, c.slug LIMIT 5', ordered: true },
  { query: 'MATCH (k:Contest) RETURN k.level, count(*) ORDER BY count(*) DESC, k.level', ordered: true },
];

describe('civicgraph and kuzu (the oracle) answer alike', () => {
  let store: MemoryGraphStore;
  let oracle: KuzuOracle;
  let cat: Catalogue;

  beforeAll(async () => {
    store = new MemoryGraphStore();
    const writer = new GraphWriter({ store, env: 'test', now: () => new Date('2026-11-22T12:00:00Z') });
    for (const batch of generateDemo({ regions: REGIONS, today: '2026-11-22' })) await writer.apply(batch);
    oracle = await KuzuOracle.load(store);
    cat = catalogue(await readGraph(store));
  });

  afterAll(async () => {
    await oracle?.close();
  });

  /** Both answers, compared; a difference fails naming the query and showing both. */
  async function agree(c: Case, how: Comparison): Promise<unknown[][]> {
    const parameters = c.parameters ?? {};
    const [ours, theirs] = await Promise.all([
      runCypher(store, ENTERPRISE, { query: c.query, parameters, minConfidence: 0 }).then(
        (a) => a.rows,
        (e: unknown) => e as Error,
      ),
      oracle.run(c.query, parameters).then(
        (a) => a.rows,
        (e: unknown) => e as Error,
      ),
    ]);
    const what =
      ours instanceof Error || theirs instanceof Error
        ? 'an engine refused the query'
        : ours[0] !== undefined && theirs[0] !== undefined && ours[0].length !== theirs[0].length
          ? 'the column counts differ'
          : difference(theirs, ours, how);
    if (what !== undefined) {
      throw new Error(
        [
          `civicgraph and kuzu disagree: ${what}`,
          `query: ${c.query}`,
          `parameters: ${JSON.stringify(parameters)}`,
          `compared: ${how.ordered ? 'in order' : 'as multisets'}${how.unorderedLists ? ', lists as multisets' : ''}`,
          `civicgraph: ${show(ours)}`,
          `kuzu:       ${show(theirs)}`,
        ].join('\n'),
      );
    }
    return ours as unknown[][];
  }

  it.each(CORPUS)('$query', async (c) => {
    const rows = await agree(c, { ordered: c.ordered === true, unorderedLists: /collect\s*\(/i.test(c.query) });
    // Every corpus query is written to find something: agreeing on nothing proves little.
    expect(rows.length).toBeGreaterThan(0);
  });

  it('on 200 queries generated from the schema and the values in the graph', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(generatedQuery(cat), async (g) => {
        const rows = await agree(g, g);
        if (rows.length > 0) answered++;
      }),
      { seed: 24, numRuns: 200 },
    );
    // The generator aims WHERE at values the graph holds: most queries must find rows.
    expect(answered).toBeGreaterThan(100);
  });
});

function show(answer: unknown[][] | Error): string {
  if (answer instanceof Error) return `refused: ${answer.message}`;
  const text = JSON.stringify(answer);
  return text.length > 6000 ? `${text.slice(0, 6000)}… (${answer.length} rows)` : text;
}
