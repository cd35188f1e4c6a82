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
import { CORPUS, type Case } from '../../test/cypher-corpus.js';
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
