import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '@civicgraph/gateway';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { DENVER, get, startStack, type Stack } from '../harness/stack.js';
import { CONTACT_FIELDS, DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, NEXT_GENERAL } from '../harness/demo.js';

/**
 * The revalidation front answers a conditional GET of a cached answer before express. It
 * must answer exactly what express would: the same status and headers, for every cached
 * endpoint, key and version, and it must hand everything else to express. Two gateways in
 * front of the same services, one with the front and one without, are asked the same
 * requests and must agree.
 */

/** Headers whose values are per request or per gateway: compared by presence only. */
const PER_REQUEST = new Set(['civic-request-id', 'date', 'civic-ratelimit-remaining', 'civic-ratelimit-reset', 'keep-alive', 'connection']);

let s: Stack;
let withFront: Gateway;
let without: Gateway;
let keys: Record<'plain' | 'contact' | 'pinned' | 'delaware', string>;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  withFront = s.gateway;
  without = await s.addGateway({ revalidationFront: false });
  keys = {
    plain: await s.key(),
    contact: await s.key({ entitlements: { contact: true, geography: true, states: [], tiers: [] } }),
    pinned: await s.key({ pinnedVersion: '2026-11-01' }),
    delaware: await s.key({ entitlements: { contact: false, geography: true, states: ['de'], tiers: [] } }),
  };
  await s.graph.drainOutbox();
}, 60_000);
afterAll(() => s?.stop());

/** What a response says, but for the per-request values. */
function shape(res: { status: number; headers: Headers }) {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = PER_REQUEST.has(name) ? '(present)' : value));
  return { status: res.status, headers };
}

async function paths(): Promise<string[]> {
  const contests = await get(`${s.url}/v1/contests?state=co&date=${NEXT_GENERAL}`, keys.plain);
  const contest = contests.body.data[0];
  const candidacy = (await get(`${s.url}/v1/contests/${encodeURIComponent(contest.slug)}`, keys.plain)).body.candidacies[0].slug;
  return [
    `/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`,
    `/v1/contests?state=co&date=${NEXT_GENERAL}`,
    `/v1/contests/${encodeURIComponent(contest.slug)}`,
    `/v1/candidacies?contest=${encodeURIComponent(contest.slug)}`,
    `/v1/candidacies/${encodeURIComponent(candidacy)}`,
    '/v1/officeholders?region=region:co',
    '/v1/election_dates?state=co',
    '/v1/meta/layers',
  ];
}

describe('the revalidation front', () => {
  it('answers every cached endpoint\'s revalidation with the 304 express sends, for every kind of key and version', async () => {
    const before = withFront.front!.answered;
    let compared = 0;
    for (const path of await paths()) {
      for (const [name, key] of Object.entries(keys)) {
        for (const version of [{}, { 'Civic-Version': '2026-11-01' }]) {
          const first = await Promise.all([withFront, without].map((g) => get(`${g.url}${path}`, key, version)));
          const statuses = first.map((r) => r.status);
          expect(statuses[0], `${path} as ${name}`).toBe(statuses[1]);
          if (statuses[0] !== 200) continue;
          const etag = first[0]!.headers.get('etag')!;
          expect(first[1]!.headers.get('etag'), `${path} as ${name}: both gateways render the same bytes`).toBe(etag);
          const again = await Promise.all([withFront, without].map((g) => get(`${g.url}${path}`, key, { ...version, 'If-None-Match': etag })));
          expect(shape(again[0]!), `${path} as ${name} ${JSON.stringify(version)}`).toEqual(shape(again[1]!));
          expect(again[0]!.status).toBe(304);
          expect(again[0]!.text).toBe('');
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(40);
    // Every one of them was the front's: express never saw it.
    expect(withFront.front!.answered - before).toBe(compared);
    expect(without.front).toBeUndefined();
  });

  it('leaves everything but a matching revalidation of a cached answer to express', async () => {
    const path = `/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`;
    const { headers } = await get(`${withFront.url}${path}`, keys.plain);
    const etag = headers.get('etag')!;
    const before = withFront.front!.answered;
    const cases: Array<[string, Promise<{ status: number; body?: any }>, number]> = [
      ['another ETag', get(`${withFront.url}${path}`, keys.plain, { 'If-None-Match': '"not-this-one"' }), 200],
      ['a path not yet cached', get(`${withFront.url}/v1/election_dates?state=de`, keys.plain, { 'If-None-Match': etag }), 200],
      ['an unknown version', get(`${withFront.url}${path}`, keys.plain, { 'If-None-Match': etag, 'Civic-Version': '1999-01-01' }), 400],
      ['no key', get(`${withFront.url}${path}`, undefined, { 'If-None-Match': etag }), 401],
      ['a wrong key', get(`${withFront.url}${path}`, `${keys.plain.slice(0, -4)}AAAA`, { 'If-None-Match': etag }), 401],
      ['a key in the query', get(`${withFront.url}${path}&api_key=${keys.plain}`, keys.plain, { 'If-None-Match': etag }), 400],
    ];
    for (const [what, answer, status] of cases) expect((await answer).status, what).toBe(status);
    const head = await fetch(`${withFront.url}${path}`, { method: 'HEAD', headers: { Authorization: `Bearer ${keys.plain}`, 'If-None-Match': etag } });
    expect(head.status, 'HEAD').toBe(304);
    expect(withFront.front!.answered).toBe(before);
  });

  it('never lets one key revalidate another key\'s answer: the ETag of a contact key\'s answer is a 200 without contact fields for a key without', async () => {
    const path = `/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`;
    const rich = await get(`${withFront.url}${path}`, keys.contact);
    expect(rich.text).toContain(CONTACT_FIELDS[0]);
    const plain = await get(`${withFront.url}${path}`, keys.plain, { 'If-None-Match': rich.headers.get('etag')! });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('etag')).not.toBe(rich.headers.get('etag'));
    for (const field of CONTACT_FIELDS) expect(plain.text).not.toContain(field);
  });

  it('refuses a revoked key\'s revalidation, and one over its rate limit, as express does', async () => {
    const path = '/v1/election_dates?state=co';
    const key = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 3 });
    const first = await get(`${withFront.url}${path}`, key);
    const etag = first.headers.get('etag')!;
    expect((await get(`${withFront.url}${path}`, key, { 'If-None-Match': etag })).status).toBe(304);
    await get(`${withFront.url}${path}`, key);
    await get(`${withFront.url}${path}`, key);
    const limited = await get(`${withFront.url}${path}`, key, { 'If-None-Match': etag });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();

    const other = await s.key();
    const cached = await get(`${withFront.url}${path}`, other);
    expect((await get(`${withFront.url}${path}`, other, { 'If-None-Match': cached.headers.get('etag')! })).status).toBe(304);
    await s.auth.keys.revoke((await s.auth.keys.list()).at(-1)!.keyId);
    await expect.poll(async () => (await get(`${withFront.url}${path}`, other, { 'If-None-Match': cached.headers.get('etag')! })).status,
      { timeout: 2_000, interval: 20 }).toBe(401);
  });
});
