import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { BallotMemo, connectGraph } from '@civicgraph/gateway';
import { get, graphql, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

/**
 * The sandbox and the live dataset: a `cg_test_` key reads the sandbox deployment's data,
 * a `cg_live_` key the live deployment's, and neither reaches the other's, through any
 * layer or even by calling a service directly.
 */

let sandbox: Stack;
let live: Stack;
let testKey: string;
let liveKey: string;

beforeAll(async () => {
  // Different data in each: the sandbox knows Colorado only, the live dataset Delaware only.
  sandbox = await startStack({ demo: { regions: REGIONS.filter((r) => r.state === 'co'), today: TODAY } });
  live = await startStack({ serves: 'live', demo: { regions: REGIONS.filter((r) => r.state === 'de'), today: TODAY } });
  testKey = await sandbox.key();
  liveKey = await live.key();
}, scaled(90_000));
afterAll(async () => {
  await sandbox?.stop();
  await live?.stop();
});

const contests = async (s: Stack, key: string, state: string) =>
  get(`${s.url}/v1/contests?state=${state}&limit=200`, key);

describe('environments', () => {
  it("gives each key its own environment's data", async () => {
    expect(liveKey).toMatch(/^cg_live_/);
    expect((await contests(sandbox, testKey, 'co')).body.data.length).toBeGreaterThan(0);
    expect((await contests(sandbox, testKey, 'de')).body.data).toEqual([]);
    expect((await contests(live, liveKey, 'de')).body.data.length).toBeGreaterThan(0);
    expect((await contests(live, liveKey, 'co')).body.data).toEqual([]);
  });

  it("refuses a key at the other environment's deployment, in REST and GraphQL, before looking it up", async () => {
    for (const [s, key, served] of [
      [sandbox, liveKey, 'cg_test_'],
      [live, testKey, 'cg_live_'],
    ] as const) {
      const rest = await contests(s, key, 'co');
      expect(rest.status).toBe(401);
      expect(rest.body).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
      expect(rest.body.detail).toContain(served);
      const gql = await graphql(s.url, key, '{ contests(state: "CO") { slug } }');
      expect(gql.status).toBe(401);
      expect(gql.body).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
    }
  });

  it('has the graph service itself refuse a principal of the other environment', async () => {
    const client = connectGraph(live.graph.address, scaled(2_000), new BallotMemo());
    const principal = (environment: Environment): Principal => ({
      keyId: 'key_direct',
      environment,
      plan: Plan.PLAN_ENTERPRISE,
      pinnedVersion: '2026-11-01',
      rateLimitPerMinute: 1000,
      entitlements: { contact: true, geography: true, states: [], tiers: [] },
    });
    try {
      const request = { state: 'de', level: '', date: '', minConfidence: 0 };
      expect((await client.listContests(principal(Environment.ENVIRONMENT_LIVE), request)).data.length).toBeGreaterThan(
        0,
      );
      await expect(client.listContests(principal(Environment.ENVIRONMENT_TEST), request)).rejects.toMatchObject({
        type: 'unauthenticated',
      });
    } finally {
      client.close();
    }
  });
});
