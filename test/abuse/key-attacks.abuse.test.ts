import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { DENVER, get, graphql, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, NEXT_GENERAL } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

/** How keys are presented, and every way of presenting one wrongly, over real HTTP. */

let s: Stack;
let key: string;
let explore: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  key = await s.key();
  explore = await s.key({ plan: Plan.PLAN_EXPLORE });
}, scaled(60_000));
afterAll(() => s?.stop());

const LAYERS = '/v1/meta/layers';

/** A GET with raw header lines (fetch would merge repeated headers into one). */
function rawGet(path: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: any }> {
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    // An array value goes out as one header line per element.
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', headers },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c) => (text += c))
          .on('end', () => resolve({ status: res.statusCode!, body: text === '' ? undefined : JSON.parse(text) }));
      },
    );
    req.on('error', reject).end();
  });
}

function expectProblem(res: { status: number; body: any }, status: number, type: string, field: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ type, status, field, request_id: expect.stringMatching(/^req_/) });
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+/);
}

describe('presenting a key', () => {
  it('accepts the Bearer scheme in any case (RFC 9110: schemes are case-insensitive)', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      expect((await get(`${s.url}${LAYERS}`, undefined, { Authorization: `${scheme} ${key}` })).status).toBe(200);
    }
  });

  it.each(['api_key', 'key', 'access_token', 'token'])(
    'refuses a key in the query string (%s) as 400 naming the parameter, even with a good header',
    async (name) => {
      const res = await get(`${s.url}${LAYERS}?${name}=${key}`, key);
      expectProblem(res, 400, 'invalid_parameter', name);
      expect(res.body.detail).toContain('Authorization');
    },
  );

  it('refuses two Authorization headers, even when both carry the good key', async () => {
    const res = await rawGet(LAYERS, { Authorization: [`Bearer ${key}`, `Bearer ${key}`] });
    expectProblem(res, 400, 'invalid_parameter', 'Authorization');
  });

  it.each([
    ['no header', () => undefined],
    ['another scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a truncated key', () => `Bearer ${key.slice(0, 30)}`],
    ['an unknown key', () => `Bearer cg_test_${'A'.repeat(40)}`],
    ['a key with a character too many', () => `Bearer ${key}x`],
    ['a 10 KB header', () => `Bearer ${'A'.repeat(10_240)}`],
  ])('refuses %s as 401 naming Authorization', async (_, header) => {
    const value = header();
    const res = await get(`${s.url}${LAYERS}`, undefined, value === undefined ? {} : { Authorization: value });
    expectProblem(res, 401, 'unauthenticated', 'Authorization');
  });

  it('refuses a truncated key with the same problem as an unknown or revoked one', async () => {
    const revoked = await s.auth.keys.create({
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_BUILD,
      label: 'r',
      pinnedVersion: '',
    });
    await s.auth.keys.revoke(revoked.record.keyId);
    const details = new Set<string>();
    for (const presented of [key.slice(0, 30), `cg_test_${'B'.repeat(40)}`, revoked.key]) {
      const res = await get(`${s.url}${LAYERS}`, presented);
      expectProblem(res, 401, 'unauthenticated', 'Authorization');
      details.add(res.body.detail);
    }
    expect(details.size).toBe(1);
  });

  it('refuses a key of the other environment, saying which environment this deployment serves', async () => {
    const live = await s.key({ environment: Environment.ENVIRONMENT_LIVE });
    const res = await get(`${s.url}${LAYERS}`, live);
    expectProblem(res, 401, 'unauthenticated', 'Authorization');
    expect(res.body.detail).toContain('cg_test_');
    const gql = await graphql(s.url, live, '{ __typename }');
    expect(gql.status).toBe(401);
  });

  it('sends Vary: Authorization on every answer that depends on the key', async () => {
    const paths = [
      LAYERS,
      `/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`,
      '/v1/contests?state=co',
      `/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`,
    ];
    for (const path of paths) {
      const res = await get(`${s.url}${path}`, key);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('vary'), path).toMatch(/Authorization/);
    }
    const gql = await graphql(s.url, key, '{ __typename }');
    expect(gql.headers.get('vary')).toMatch(/Authorization/);
    // Refusals depend on the key too: a plan gate, an unknown key, a missing entitlement.
    for (const [path, k] of [
      ['/v1/webhooks', explore],
      [LAYERS, 'cg_test_nope'],
      ['/v1/contests/contest:nope', key],
    ] as const) {
      const res = await get(`${s.url}${path}`, k);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('vary'), path).toMatch(/Authorization/);
    }
  });
});

describe('plan gates', () => {
  // What a Build key gets past the gate: Cypher asks for its query, the agent (stateless MCP)
  // takes POST only; webhooks are 404 (this stack runs no webhooks service), and so is an
  // export of an id that does not exist.
  it.each([
    ['cypher', '/v1/cypher', 400],
    ['agent', '/v1/agent', 405],
    ['webhooks', '/v1/webhooks', 404],
    ['bulk_export', '/v1/exports/latest', 404],
  ])('refuses the %s layer to an Explore key as plan_required, naming the layer', async (layer, path, past) => {
    const refused = await get(`${s.url}${path}`, explore);
    expectProblem(refused, 403, 'plan_required', layer);
    const post = await fetch(`${s.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${explore}` } });
    expect(post.status).toBe(403);
    expect((await get(`${s.url}${path}`, key)).status).toBe(past);
  });

  it('says in /v1/meta/layers which layers the calling key may use', async () => {
    const available = async (k: string) =>
      Object.fromEntries((await get(`${s.url}${LAYERS}`, k)).body.data.map((l: any) => [l.name, l.available_to_key]));
    expect(await available(explore)).toEqual({
      rest: true,
      graphql: true,
      cypher: false,
      agent: false,
      webhooks: false,
      bulk_export: false,
    });
    expect(await available(key)).toEqual({
      rest: true,
      graphql: true,
      cypher: true,
      agent: true,
      webhooks: true,
      bulk_export: true,
    });
  });
});
