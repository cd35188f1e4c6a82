import { beforeAll, describe, expect, it } from 'vitest';
import { CivicError } from '@civicgraph/kit';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { candidacy, contest, creates, edge, region } from '../store/conformance-fixtures.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import type { NodeDoc } from '../model/nodes.js';
import { runCypher } from './execute.js';

function principal(
  entitlements: Partial<NonNullable<Principal['entitlements']>> = {},
  plan = Plan.PLAN_BUILD,
): Principal {
  return {
    keyId: 'key_test',
    environment: Environment.ENVIRONMENT_TEST,
    plan,
    rateLimitPerMinute: 600,
    pinnedVersion: '',
    entitlements: { contact: false, geography: false, states: [], tiers: [], ...entitlements },
  } as Principal;
}

function party(key: string, name: string): NodeDoc<'party'> {
  return {
    slug: `party:${key}`,
    kind: 'party',
    state: '',
    tier: '',
    data: { name, abbreviation: key.toUpperCase() },
    rev: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/**
 * Two states: a Colorado district contest with three candidacies (one unsure, one with no
 * party) and a Delaware county contest with one; regions nest co-cd-1 → co.
 */
async function fixture(): Promise<MemoryGraphStore> {
  const store = new MemoryGraphStore();
  const co = contest('co-cd-1-2026', { region: 'region:co-cd-1' });
  const de = contest('de-kent-2026', { region: 'region:de-kent', state: 'de', tier: 'county', level: 'county' });
  const nodes = [
    region('co'),
    region('co-cd-1', { level: 'congressional-district' }),
    region('de'),
    region('de-kent', { state: 'de', level: 'county' }),
    co,
    de,
    party('dem', 'Democratic'),
    party('rep', 'Republican'),
    candidacy('ann', { contest: co.slug, party: 'party:dem', confidence: 0.9 }),
    candidacy('bob', { contest: co.slug, party: 'party:rep', confidence: 0.3 }),
    candidacy('cy', { contest: co.slug, party: null, confidence: 0.8 }),
    candidacy('dee', { contest: de.slug, party: 'party:dem', state: 'de', tier: 'county', confidence: 0.7 }),
  ];
  await store.commit(
    creates(nodes, {
      link: [
        edge('WITHIN', 'region:co-cd-1', 'region:co'),
        edge('WITHIN', 'region:de-kent', 'region:de'),
        edge('IN_REGION', co.slug, 'region:co-cd-1'),
        edge('IN_REGION', de.slug, 'region:de-kent'),
        ...['ann', 'bob', 'cy'].map((k) => edge('FOR_CONTEST', `candidacy:${k}`, co.slug)),
        edge('FOR_CONTEST', 'candidacy:dee', de.slug),
        edge('OF_PARTY', 'candidacy:ann', 'party:dem'),
        edge('OF_PARTY', 'candidacy:bob', 'party:rep'),
        edge('OF_PARTY', 'candidacy:dee', 'party:dem'),
      ],
    }),
  );
  return store;
}

describe('runCypher', () => {
  let store: MemoryGraphStore;
  const run = async (query: string, o: { p?: Principal; params?: Record<string, unknown>; min?: number } = {}) =>
    runCypher(store, o.p ?? principal(), { query, parameters: o.params ?? {}, minConfidence: o.min ?? 0 });
  const rows = async (query: string, o: Parameters<typeof run>[1] = {}) => (await run(query, o)).rows;

  beforeAll(async () => {
    store = await fixture();
  });

  it('matches typed, directed relationships from either end', async () => {
    expect(await rows('MATCH (c:Candidacy)-[:OF_PARTY]->(p:Party) RETURN c.name, p.name ORDER BY c.name')).toEqual([
      ['ann', 'Democratic'],
      ['bob', 'Republican'],
      ['dee', 'Democratic'],
    ]);
    expect(await rows("MATCH (p:Party {slug: 'party:dem'})<-[:OF_PARTY]-(c) RETURN c.slug ORDER BY c.slug")).toEqual([
      ['candidacy:ann'],
      ['candidacy:dee'],
    ]);
    expect(await rows("MATCH (p:Party {slug: 'party:dem'})-[:OF_PARTY]->(c) RETURN c")).toEqual([]);
    expect(await rows("MATCH (p:Party {slug: 'party:dem'})-[:OF_PARTY]-(c) RETURN count(c)")).toEqual([[2]]);
  });

  it('applies the caller scope to every node it reaches, and the confidence floor to candidacies', async () => {
    const de = principal({ states: ['de'] });
    expect(await rows('MATCH (c:Candidacy) RETURN c.slug ORDER BY c.slug', { p: de })).toEqual([['candidacy:dee']]);
    // Democrats are national; Colorado's Democratic candidacy does not exist for a Delaware key.
    expect(await rows("MATCH (:Party {slug: 'party:dem'})<-[:OF_PARTY]-(c) RETURN c.slug", { p: de })).toEqual([
      ['candidacy:dee'],
    ]);
    const county = principal({ tiers: ['county'] });
    expect(await rows('MATCH (k:Contest) RETURN k.slug', { p: county })).toEqual([['contest:de-kent-2026']]);
    expect(await rows('MATCH (c:Candidacy) RETURN count(*)', { min: 0.75 })).toEqual([[2]]);
  });

  it('follows bounded variable-length paths, each relationship once', async () => {
    expect(
      await rows("MATCH (c:Candidacy {slug: 'candidacy:ann'})-[*1..3]->(r:Region) RETURN r.slug ORDER BY r.slug"),
    ).toEqual([['region:co'], ['region:co-cd-1']]);
    expect(await rows("MATCH (:Region {slug: 'region:co-cd-1'})-[rs:WITHIN*1..2]-(x) RETURN size(rs)")).toEqual([[1]]);
    // Relationship isomorphism: a second pattern cannot reuse the first one's relationship.
    expect(
      await rows(
        "MATCH (a:Candidacy {slug: 'candidacy:ann'})-[r1:FOR_CONTEST]->(k), (b)-[r2:FOR_CONTEST]->(k) RETURN b.slug ORDER BY b.slug",
      ),
    ).toEqual([['candidacy:bob'], ['candidacy:cy']]);
  });

  it('binds OPTIONAL MATCH misses to null', async () => {
    expect(
      await rows(
        'MATCH (c:Candidacy) WHERE c.state = $s OPTIONAL MATCH (c)-[:OF_PARTY]->(p) RETURN c.name, p.name ORDER BY c.name',
        {
          params: { s: 'co' },
        },
      ),
    ).toEqual([
      ['ann', 'Democratic'],
      ['bob', 'Republican'],
      ['cy', null],
    ]);
  });

  it('aggregates by the other items, over nothing as openCypher does', async () => {
    expect(
      await rows(
        'MATCH (k:Contest)<-[:FOR_CONTEST]-(c) RETURN k.state AS state, count(*) AS n, collect(c.name) AS names, min(c.confidence), max(c.confidence), avg(c.confidence), sum(c.confidence) ORDER BY state',
      ),
    ).toEqual([
      ['co', 3, ['ann', 'bob', 'cy'], 0.3, 0.9, (0.9 + 0.3 + 0.8) / 3, 0.9 + 0.3 + 0.8],
      ['de', 1, ['dee'], 0.7, 0.7, 0.7, 0.7],
    ]);
    expect(
      await rows(
        "MATCH (c:Candidacy) WHERE c.name = 'nobody' RETURN count(*), collect(c), sum(c.confidence), max(c.name)",
      ),
    ).toEqual([[0, [], 0, null]]);
    expect(await rows("MATCH (c:Candidacy) WHERE c.name = 'nobody' RETURN c.state, count(*)")).toEqual([]);
    expect(await rows('MATCH (c:Candidacy) RETURN count(DISTINCT c.state), count(c.state)')).toEqual([[2, 4]]);
  });

  it('filters after aggregation with WITH … WHERE, and chains MATCH on bound nodes', async () => {
    expect(
      await rows(
        'MATCH (k:Contest)<-[:FOR_CONTEST]-(c:Candidacy) WITH k, count(c) AS n WHERE n > 1 MATCH (k)-[:IN_REGION]->(r) RETURN k.slug, r.slug, n',
      ),
    ).toEqual([['contest:co-cd-1-2026', 'region:co-cd-1', 3]]);
  });

  it('keeps openCypher null logic, ordering and string tests', async () => {
    expect(
      await rows('RETURN null = null, null <> 1, 1 < null, null AND false, null OR true, null XOR true, NOT null'),
    ).toEqual([[null, null, null, false, true, null, null]]);
    expect(
      await rows(
        "RETURN 'Colorado' STARTS WITH 'Col', 'x' ENDS WITH 'y', 'abc' CONTAINS 'b', 2 IN [1, null], 1 IN [1, null]",
      ),
    ).toEqual([[true, false, true, null, true]]);
    expect(await rows('UNWIND [3, null, 1, 2] AS x RETURN x ORDER BY x')).toEqual([[1], [2], [3], [null]]);
    expect(await rows('UNWIND [3, null, 1, 2] AS x RETURN x ORDER BY x DESC')).toEqual([[null], [3], [2], [1]]);
    // Integers divide as integers; floats (by how they are written, or a DOUBLE property) as floats.
    expect(await rows('RETURN 7.0 / 2, 7 / 2.0, avg(7) / 2, toFloat(7) / 2')).toEqual([[3.5, 3.5, 3.5, 3.5]]);
    expect(await rows("MATCH (c:Candidacy {slug: 'candidacy:dee'}) RETURN (c.confidence + 0.3) / 2")).toEqual([[0.5]]);
    expect(await rows('RETURN 7 / 2, 7 / 2.5, 7 % 3, 2 ^ 3, -(1 + 2), [1, 2] + 3, {a: 1}.a, [1, 2, 3][-1]')).toEqual([
      [3, 2.8, 1, 8, -3, [1, 2, 3], 1, 3],
    ]);
  });

  it('answers DISTINCT, SKIP and LIMIT after ordering', async () => {
    expect(await rows('MATCH (c:Candidacy) RETURN DISTINCT c.state ORDER BY c.state')).toEqual([['co'], ['de']]);
    expect(await rows('MATCH (c:Candidacy) RETURN c.name ORDER BY c.name SKIP 1 LIMIT 2')).toEqual([['bob'], ['cy']]);
  });

  it('returns whole nodes and relationships as maps, contact properties only with contact', async () => {
    const node = (await rows("MATCH (c:Candidacy {slug: 'candidacy:ann'}) RETURN c"))[0]![0];
    expect(node).toMatchObject({ _label: 'Candidacy', slug: 'candidacy:ann', name: 'ann', confidence: 0.9 });
    expect(node).not.toHaveProperty('campaignEmails');
    const withContact = (
      await rows("MATCH (c:Candidacy {slug: 'candidacy:ann'}) RETURN c", { p: principal({ contact: true }) })
    )[0]![0];
    expect(withContact).toHaveProperty('campaignEmails', []);
    expect(await rows("MATCH (:Candidacy {slug: 'candidacy:ann'})-[r:OF_PARTY]->() RETURN r")).toEqual([
      [{ _type: 'OF_PARTY', _from: 'candidacy:ann', _to: 'party:dem' }],
    ]);
  });

  it('refuses contact properties anywhere in a query without contact', async () => {
    for (const query of [
      'MATCH (c:Candidacy) RETURN c.campaignTeam',
      'MATCH (c:Candidacy) WHERE c.campaignPhones IS NULL RETURN c',
      'MATCH (c:Candidacy) RETURN c ORDER BY c.campaignEmails',
      'MATCH (p:Person {contactEmails: []}) RETURN p',
      'MATCH (p:Person) WITH p.contactLinks AS l RETURN l',
    ]) {
      await expect(run(query)).rejects.toMatchObject({ type: 'entitlement_required' });
    }
  });

  it('refuses bad values in the query as invalid_parameter, never as an internal error', async () => {
    for (const [query, field] of [
      ['RETURN $missing', 'parameters'],
      ['RETURN x', 'query'],
      ['RETURN 1 / 0', 'query'],
      ["RETURN 'a' - 1", 'query'],
      ['MATCH (c:Candidacy) WHERE c.name RETURN c', 'query'],
      ['RETURN 1 LIMIT -1', 'query'],
      ["UNWIND ['a'] AS x RETURN sum(x)", 'query'],
      ['RETURN 1 AS a, 2 AS a', 'query'],
      ['MATCH (c) WHERE count(*) > 1 RETURN c', 'query'],
    ] as const) {
      const err = await run(query).catch((e: unknown) => e);
      expect(err, query).toBeInstanceOf(CivicError);
      expect((err as CivicError).type, query).toBe('invalid_parameter');
      expect((err as CivicError).field, query).toBe(field);
    }
  });

  it('reports what it examined and returned', async () => {
    const answer = await run('MATCH (c:Candidacy) RETURN c.slug');
    expect(answer.stats.rowsReturned).toBe(4);
    expect(answer.stats.rowsExamined).toBeGreaterThanOrEqual(4);
  });
});
