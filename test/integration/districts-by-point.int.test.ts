import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { DENVER, get, graphql, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

let stack: Stack;
let key: string;
const point = (q: string) => `${stack.url}/v1/districts_by_point?${q}`;
const denver = () => point(`lat=${DENVER.lat}&lng=${DENVER.lng}`);

beforeAll(async () => {
  stack = await startStack();
  key = await stack.key();
});
afterAll(() => stack.stop());

describe('GET /v1/districts_by_point', () => {
  it('lists Colorado and Denver County for a point in Denver, with the REST shape', async () => {
    const res = await get(denver(), key);
    expect(res.status).toBe(200);
    expect(res.body.point).toEqual(DENVER);
    expect(res.body.date).toBe(new Date().toISOString().slice(0, 10));
    expect(res.body.next_cursor).toBeNull();
    const bySlug = Object.fromEntries(res.body.data.map((r: any) => [r.slug, r]));
    expect(bySlug['region:co'].roles).toEqual(['serving', 'electing']);
    expect(bySlug['region:co']).toMatchObject({ name: 'Colorado', level: 'state', fips: '08' });
    expect(bySlug['region:co-denver-county']).toMatchObject({ name: 'Denver County', level: 'county', fips: '08031' });
    expect(bySlug['region:co-denver-county'].population).toBeGreaterThan(600_000);
  });

  it('sends caching, version, entitlement and rate headers', async () => {
    const res = await get(denver(), key);
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('vary')).toBe('Authorization, Civic-Version');
    expect(res.headers.get('civic-version')).toBe('2026-11-01');
    expect(res.headers.get('civic-entitlements')).toBe('geography, jurisdictions');
    expect(res.headers.get('civic-ratelimit-limit')).toBe('600');
    expect(Number(res.headers.get('civic-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers If-None-Match with 304 without counting it against the limit', async () => {
    const first = await get(denver(), key);
    const etag = first.headers.get('etag')!;
    const remaining = Number(first.headers.get('civic-ratelimit-remaining'));
    const again = await get(denver(), key, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(Number(again.headers.get('civic-ratelimit-remaining'))).toBe(remaining);
    const stale = await get(denver(), key, { 'If-None-Match': '"not-it"' });
    expect(stale.status).toBe(200);
  });

  it('refuses a request without a key with 401 problem+json and rate headers', async () => {
    const res = await get(denver());
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'unauthenticated', status: 401, field: 'Authorization' });
    expect(res.body.request_id).toMatch(/^req_/);
    expect(res.headers.get('civic-ratelimit-limit')).toBe('60');
  });

  it('refuses unknown, malformed and revoked keys alike', async () => {
    const revoked = await stack.auth.keys.create({
      environment: 1,
      plan: Plan.PLAN_BUILD,
      label: 'r',
      pinnedVersion: '',
    });
    await stack.auth.keys.revoke(revoked.record.keyId);
    for (const k of ['cg_test_' + 'A'.repeat(40), 'nonsense', revoked.key]) {
      const res = await get(denver(), k);
      expect(res.status).toBe(401);
      expect(res.body.type).toBe('unauthenticated');
    }
    expect((await get(denver(), undefined, { Authorization: `Basic ${key}` })).status).toBe(401);
  });

  it.each([
    ['lat=abc&lng=-104.9', 'lat'],
    ['lat=NaN&lng=-104.9', 'lat'],
    ['lat=Infinity&lng=-104.9', 'lat'],
    ['lat=&lng=-104.9', 'lat'],
    ['lng=-104.9', 'lat'],
    ['lat=91&lng=-104.9', 'lat'],
    ['lat=1e308&lng=-104.9', 'lat'],
    ['lat=1e309&lng=-104.9', 'lat'],
    ['lat=39.7&lat=39.8&lng=-104.9', 'lat'],
    ['lat=39.7', 'lng'],
    ['lat=39.7&lng=-180.5', 'lng'],
    ['lat=39.7&lng=0x10', 'lng'],
    ['lat=39.7&lon=-104.9', 'lon'],
    ['lat=39.7&lng=-104.9&min_confidence=2', 'min_confidence'],
    ['lat=39.7&lng=-104.9&cursor=abc', 'cursor'],
    ['lat=39.7&lng=-104.9&date=2025-02-30', 'date'],
    ['lat=39.7&lng=-104.9&date=yesterday', 'date'],
    ['lat=39.7&lng=-104.9&date=2025-01-01&date=2025-01-02', 'date'],
  ])('answers %s with 400 invalid_parameter naming %s', async (query, field) => {
    const res = await get(point(query), key);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'invalid_parameter', status: 400, field });
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('accepts the edges of the coordinate range', async () => {
    for (const q of ['lat=90&lng=180', 'lat=-90&lng=-180', 'lat=0&lng=0']) {
      const res = await get(point(q), key);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it('pins the version from the header, else the key, and refuses unknown dates', async () => {
    expect((await get(denver(), key, { 'Civic-Version': '2026-11-01' })).headers.get('civic-version')).toBe(
      '2026-11-01',
    );
    const bad = await get(denver(), key, { 'Civic-Version': '1999-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'unsupported_version', field: 'Civic-Version' });
  });

  it('refuses a key without the geography entitlement with 403 entitlement_required', async () => {
    const noGeo = await stack.key({ entitlements: { contact: false, geography: false, states: [], tiers: [] } });
    const res = await get(denver(), noGeo);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ type: 'entitlement_required', field: 'geography' });
    expect(res.headers.get('civic-entitlements')).toBe('jurisdictions');
    const gql = await graphql(stack.url, noGeo, '{ districtsAtPoint(lat: 39.7392, lng: -104.9903) { slug } }');
    expect(gql.body.errors[0].extensions).toMatchObject({
      type: 'entitlement_required',
      entitlement: 'geography',
      field: 'Query.districtsAtPoint',
    });
    expect(gql.body.errors[0].path).toEqual(['districtsAtPoint']);
  });

  it('hides regions outside a key’s states in REST and GraphQL alike', async () => {
    const delaware = await stack.key({ entitlements: { contact: false, geography: true, states: ['de'], tiers: [] } });
    expect((await get(denver(), delaware)).body.data).toEqual([]);
    const gql = await graphql(stack.url, delaware, '{ districtsAtPoint(lat: 39.7392, lng: -104.9903) { slug } }');
    expect(gql.body.data.districtsAtPoint).toEqual([]);
    const colorado = await stack.key({ entitlements: { contact: false, geography: true, states: ['co'], tiers: [] } });
    expect((await get(denver(), colorado)).body.data.map((r: any) => r.slug)).toContain('region:co-denver-county');
  });

  it(
    'limits an Explore key to 60 requests a minute, then 429 with Retry-After and rate headers',
    async () => {
      await awayFromMinuteEnd();
      const explore = await stack.key({ plan: Plan.PLAN_EXPLORE });
      for (let i = 0; i < 60; i++) expect((await get(denver(), explore)).status).toBe(200);
      const res = await get(denver(), explore);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ type: 'rate_limited', status: 429 });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(res.headers.get('civic-ratelimit-limit')).toBe('60');
      expect(res.headers.get('civic-ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('civic-ratelimit-reset'))).toBe(Math.ceil(Date.now() / 60_000) * 60);
      // Another key's bucket is untouched.
      expect((await get(denver(), key)).status).toBe(200);
    },
    scaled(70_000),
  );
});

/** Windows are calendar minutes: start a 61-request burst with at least 20 s of window left. */
async function awayFromMinuteEnd(): Promise<void> {
  await vi.waitFor(() => expect(60 - ((Date.now() / 1000) % 60)).toBeGreaterThan(20), {
    timeout: scaled(45_000),
    interval: 250,
  });
}

describe('POST /graphql', () => {
  it('districtsAtPoint returns the same regions as REST for the same point', async () => {
    const rest = await get(denver(), key);
    const gql = await graphql(
      stack.url,
      key,
      'query($lat: Float!, $lng: Float!) { districtsAtPoint(lat: $lat, lng: $lng) { slug name level fips population ocdId roles validFrom validTo source precision scaleDenominator } }',
      DENVER,
    );
    expect(gql.status).toBe(200);
    const fromGql = gql.body.data.districtsAtPoint.map((r: any) => ({
      slug: r.slug,
      name: r.name,
      level: r.level.toLowerCase().replaceAll('_', '-'),
      fips: r.fips,
      population: r.population,
      ocd_id: r.ocdId,
      roles: r.roles.map((x: string) => x.toLowerCase()),
      valid_from: r.validFrom,
      valid_to: r.validTo,
      source: r.source,
      precision: r.precision.toLowerCase(),
      scale_denominator: r.scaleDenominator,
    }));
    expect(fromGql).toEqual(rest.body.data);
    expect(gql.body.data.districtsAtPoint.map((r: any) => r.level)).toContain('COUNTY');
  });

  it('reports a bad date as invalid_parameter naming it', async () => {
    const gql = await graphql(
      stack.url,
      key,
      '{ districtsAtPoint(lat: 39.7, lng: -104.9, date: "2025-13-01") { slug } }',
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ type: 'invalid_parameter', field: 'date' });
  });

  it('reports a bad coordinate as invalid_parameter naming the argument', async () => {
    const gql = await graphql(stack.url, key, '{ districtsAtPoint(lat: 123, lng: 0) { slug } }');
    expect(gql.body.errors[0].extensions).toMatchObject({ type: 'invalid_parameter', field: 'lat' });
  });

  it('needs a key like every layer', async () => {
    const res = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    expect(res.status).toBe(401);
  });

  it('serves GraphiQL with local assets to a browser', async () => {
    const page = await fetch(`${stack.url}/graphql`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/graphql/assets/graphiql.js');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css']) {
      expect((await fetch(`${stack.url}/graphql/assets/${asset}`)).status).toBe(200);
    }
  });
});

describe('health and unknown paths', () => {
  it('is alive and ready when every upstream serves', async () => {
    expect((await get(`${stack.url}/healthz`)).status).toBe(200);
    const ready = await get(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.upstreams).toEqual({ auth: 'serving', geo: 'serving', graph: 'serving', results: 'serving' });
  });

  it('answers an unknown path with 404 problem+json', async () => {
    const res = await get(`${stack.url}/v1/nope`, key);
    expect(res.status).toBe(404);
    expect(res.body.type).toBe('not_found');
  });
});
