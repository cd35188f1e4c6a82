import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../services/gateway/src/rest/endpoint.js';
import { ENDPOINTS } from '../../services/gateway/src/rest/endpoints.js';
import { buildOpenApi } from '../../services/gateway/src/rest/openapi/build.js';
import { API_INFO } from '../../services/gateway/src/rest/openapi/info.js';
import {
  okContent,
  refName,
  schemaChecker,
  type SchemaCheck,
} from '../../services/gateway/src/rest/openapi/validate-schemas.js';
import { COMPONENTS } from '../../services/gateway/src/rest/schema/components.js';
import { get, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, PAST_GENERAL, CONTACT_FIELDS } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

let s: Stack;
let key: string;
let contactKey: string;
let doc: Record<string, any>;
let check: SchemaCheck;
/** Replacement values by parameter name, taken from the demo (the examples name real-world slugs the demo lacks). */
let real: Record<string, string>;
const at = (path: string) => `${s.url}${path}`;

/** Values from a real contest of the demo (a past statewide general, which has candidacies and results), by parameter name or slug kind. */
async function demoValues(): Promise<Record<string, string>> {
  const listed = (await get(at(`/v1/contests?state=co&level=state&date=${PAST_GENERAL}`), key)).body.data;
  const contest = (await get(at(`/v1/contests/${listed[0].slug}`), key)).body;
  const candidacy = contest.candidacies[0];
  return {
    contest: contest.slug,
    candidacy: candidacy.slug,
    office: contest.office_slug,
    region: contest.region.slug,
    party: candidacy.party_slug,
    // The embedded geocoder reads ZIPs, `City, ST` and coordinates, not street addresses.
    address: '80202',
    // The demo has no congressional districts, and its synthetic sources score below the example's 0.5.
    level: 'state',
    min_confidence: '0',
  };
}

/** The URL of a real request to `e`: its parameters' examples, with the demo's values where it has its own. */
function urlOf(e: Endpoint, overrides: Record<string, string> = {}): string {
  let path = e.path;
  const query = new URLSearchParams();
  for (const p of e.params) {
    if (p.example === undefined) continue;
    // A path slug is replaced by the demo's slug of its kind (`contest:…` → real.contest).
    const name = p.in === 'path' ? String(p.example).split(':')[0]! : p.name;
    const value = overrides[p.name] ?? real[name] ?? String(p.example);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else query.set(p.name, value);
  }
  return at(`${path}?${query}`);
}

/** The headers `doc` lists for GET `path` answering `status`, lowercase. */
function documentedHeaders(path: string, status: number): string[] {
  return Object.keys(doc['paths'][path].get.responses[String(status)].headers ?? {}).map((h) => h.toLowerCase());
}

/** Per-operation values where the shared examples find nothing in the demo. */
const OVERRIDES: Record<string, Record<string, string>> = {
  // Terms won at the example's election start in January.
  listOfficeholders: { date: '2027-06-01' },
};

/** GETs `e` with `who`, expects the documented 200, and checks the body against the documented schema. */
async function callDocumented(e: Endpoint, who: string) {
  const res = await get(urlOf(e, OVERRIDES[e.operationId]), who);
  const documented = okContent(doc, e.path);
  expect(res.status, `${e.operationId}: ${res.text.slice(0, 300)}`).toBe(200);
  expect(res.headers.get('content-type'), e.operationId).toMatch(new RegExp(`^${documented.type.replace('+', '\\+')}`));
  expect(check(refName(documented.schema), res.body), e.operationId).toEqual([]);
  return res;
}

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  key = await s.key();
  contactKey = await s.key({ entitlements: { contact: true, geography: true, states: [], tiers: [] } });
  doc = (await get(at('/v1/openapi.json'))).body;
  check = schemaChecker(doc['components'].schemas);
  real = await demoValues();
}, scaled(60_000));
afterAll(() => s?.stop());

describe('GET /v1/openapi.json', () => {
  it('is served without a key, and is the document buildOpenApi generates', async () => {
    const res = await get(at('/v1/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApi(ENDPOINTS, COMPONENTS, API_INFO))));
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(at('/v1/openapi.json'), undefined, { 'If-None-Match': etag })).status).toBe(304);
  });
});

describe('GET /docs', () => {
  it('serves the reference page with local assets, and no other file of the package', async () => {
    const page = await fetch(at('/docs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('/v1/openapi.json');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/assets/'), asset).toBe(true);
      const res = await fetch(at(asset));
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
    expect((await get(at('/docs/assets/index.html'))).body).toMatchObject({ status: 404, type: 'not_found' });
  });
});

describe('every documented endpoint', () => {
  it('answers a real request with a body its documented schema accepts, and the documented headers', async () => {
    for (const e of ENDPOINTS) {
      const res = await callDocumented(e, key);
      const headers = documentedHeaders(e.path, 200);
      expect(headers).toEqual(
        expect.arrayContaining([
          'civic-request-id',
          'civic-version',
          'etag',
          'cache-control',
          'civic-ratelimit-remaining',
        ]),
      );
      for (const h of headers) expect(res.headers.get(h), `${e.operationId} ${h}`).not.toBeNull();
      const items = res.body.data ?? res.body.contests ?? res.body.candidacies;
      if (Array.isArray(items)) expect(items.length, `${e.operationId} has something to check`).toBeGreaterThan(0);
    }
  });

  it('documents the contact fields a key with the contact entitlement gets', async () => {
    const bearing = ENDPOINTS.filter((e) =>
      ['getBallot', 'getContest', 'listCandidacies', 'getCandidacy'].includes(e.operationId),
    );
    expect(bearing).toHaveLength(4);
    for (const e of bearing) {
      const body = (await callDocumented(e, contactKey)).body;
      const candidacies = body.contests?.flatMap((c: any) => c.candidacies) ?? body.candidacies ?? body.data ?? [body];
      expect(candidacies.length, e.operationId).toBeGreaterThan(0);
      for (const c of candidacies)
        for (const f of CONTACT_FIELDS) expect(Array.isArray(c[f]), `${e.operationId} ${f}`).toBe(true);
    }
  });

  it('answers errors as documented: a listed status and a body the Problem schema accepts', async () => {
    const noGeo = await s.key({ entitlements: { contact: false, geography: false, states: [], tiers: [] } });
    const byId = (id: string) => ENDPOINTS.find((e) => e.operationId === id)!;
    const cases: {
      e: Endpoint;
      url: string;
      who?: string;
      headers?: Record<string, string>;
      status: number;
      type: string;
    }[] = [
      { e: byId('getBallot'), url: urlOf(byId('getBallot')), status: 401, type: 'unauthenticated' },
      { e: byId('getBallot'), url: at('/v1/ballot?lat=91&lng=0'), who: key, status: 400, type: 'invalid_parameter' },
      {
        e: byId('listContests'),
        url: urlOf(byId('listContests')),
        who: key,
        headers: { 'Civic-Version': '1999-01-01' },
        status: 400,
        type: 'unsupported_version',
      },
      {
        e: byId('getContest'),
        url: at('/v1/contests/contest:co-nowhere-mayor-2030-general'),
        who: key,
        status: 404,
        type: 'not_found',
      },
      {
        e: byId('districtsByPoint'),
        url: urlOf(byId('districtsByPoint')),
        who: noGeo,
        status: 403,
        type: 'entitlement_required',
      },
    ];
    for (const { e, url, who, headers, status, type } of cases) {
      const res = await get(url, who, headers);
      expect(res.status, url).toBe(status);
      expect(res.body.type, url).toBe(type);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const documented = doc['paths'][e.path].get.responses[String(status)];
      expect(documented, `${e.operationId} documents ${status}`).toBeDefined();
      expect(Object.keys(documented.content['application/problem+json'].examples)).toContain(res.body.type);
      expect(check('Problem', res.body), url).toEqual([]);
      expect(res.body.request_id).toBe(res.headers.get('civic-request-id'));
      for (const h of documentedHeaders(e.path, status)) expect(res.headers.get(h), `${url} ${h}`).not.toBeNull();
    }
  });
});
