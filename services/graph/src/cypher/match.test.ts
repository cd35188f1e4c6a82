import { beforeAll, describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { NodeDoc } from '../model/nodes.js';
import { creates, edge, region } from '../store/conformance-fixtures.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { runCypher } from './execute.js';

const PRINCIPAL: Principal = {
  keyId: 'key_test',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_BUILD,
  rateLimitPerMinute: 600,
  pinnedVersion: '',
  entitlements: { contact: false, geography: false, states: [], tiers: [] },
};

const AT = '2026-01-01T00:00:00.000Z';

function person(key: string): NodeDoc<'person'> {
  const data = { name: key, givenName: null, familyName: null, ids: {}, birthday: null, gender: null };
  return { slug: `person:${key}`, kind: 'person', state: '', tier: '', data, rev: 1, updatedAt: AT };
}

function office(key: string): NodeDoc<'office'> {
  const data = { name: key, level: 'state' as const, tier: 'state' as const, region: 'region:co' };
  return { slug: `office:${key}`, kind: 'office', state: 'co', tier: 'state', data, rev: 1, updatedAt: AT };
}

/** co-cd-1 lies within co; ann and bob hold offices for one party, cy for another. */
async function fixture(): Promise<MemoryGraphStore> {
  const store = new MemoryGraphStore();
  const term = (who: string, what: string, party: string) =>
    edge('HOLDS', `person:${who}`, `office:${what}`, '2027', { start: '2027-01-01', end: '2031-01-01', party });
  await store.commit(
    creates(
      [
        region('co'),
        region('co-cd-1', { level: 'congressional-district' }),
        ...['ann', 'bob', 'cy'].map(person),
        ...['governor', 'treasurer', 'auditor'].map(office),
      ],
      {
        link: [
          edge('WITHIN', 'region:co-cd-1', 'region:co'),
          term('ann', 'governor', 'party:dem'),
          term('bob', 'treasurer', 'party:dem'),
          term('cy', 'auditor', 'party:rep'),
        ],
      },
    ),
  );
  return store;
}

/** Matching, on the openCypher points a differential test against kuzu found wrong. */
describe('matchPatterns', () => {
  let store: MemoryGraphStore;
  const rows = async (query: string) =>
    (await runCypher(store, PRINCIPAL, { query, parameters: {}, minConfidence: 0 })).rows;

  beforeAll(async () => {
    store = await fixture();
  });

  it('includes the path of no relationships when a variable length may be 0', async () => {
    expect(
      await rows("MATCH (r:Region {slug: 'region:co-cd-1'})-[:WITHIN*0..1]->(s) RETURN s.slug ORDER BY s.slug"),
    ).toEqual([['region:co'], ['region:co-cd-1']]);
    expect(await rows("MATCH (r:Region {slug: 'region:co'})-[rs:WITHIN*0]-(s) RETURN s.slug, size(rs)")).toEqual([
      ['region:co', 0],
    ]);
  });

  it('binds a node once when a WHERE names its slug twice', async () => {
    expect(await rows("MATCH (r:Region) WHERE r.slug IN ['region:co', 'region:co'] RETURN r.slug")).toEqual([
      ['region:co'],
    ]);
    expect(await rows("MATCH (r:Region) WHERE r.level IN ['state', 'state'] RETURN count(*)")).toEqual([[1]]);
  });

  it("reads a relationship's inline properties on the row, so they may name earlier variables", async () => {
    expect(
      await rows(
        "MATCH (:Person {slug: 'person:ann'})-[h:HOLDS]->() MATCH (p:Person)-[:HOLDS {party: h.party}]->(o:Office) RETURN p.slug, o.slug ORDER BY p.slug",
      ),
    ).toEqual([
      ['person:ann', 'office:governor'],
      ['person:bob', 'office:treasurer'],
    ]);
  });
});
