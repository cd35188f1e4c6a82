/**
 * Bad input, property-based: every documented /v1 endpoint (derived from ENDPOINTS, so a new
 * one is covered without touching this file), every one of its parameters replaced in an
 * otherwise valid request by a hostile value, unknown extra parameters, and hostile
 * Authorization / Civic-Version headers. The answer is never 5xx; a 4xx is problem+json
 * of a known type naming a field; a 400 invalid_parameter names the parameter replaced;
 * and a value the parameter's own schema refuses is exactly that 400.
 *
 * Requests go out through node:http with the path written byte for byte (no WHATWG URL
 * normalisation of `..`, `%2e`, or malformed escapes), so the gateway sees what was sent.
 * PROPERTY_RUNS=300 runs each property longer (default 30 per endpoint × parameter).
 */
import http from 'node:http';
import { unescape as qsUnescape } from 'node:querystring';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { API_VERSIONS, isIsoDate, type ErrorType } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';
// Not exported by @civicgraph/gateway: the registry is read from its source.
import { ENDPOINTS } from '../../services/gateway/src/rest/endpoints.js';
import type { Endpoint } from '../../services/gateway/src/rest/endpoint.js';
import { MAX_PARAM_LENGTH, type ParamSpec } from '../../services/gateway/src/rest/schema/params.js';
import { startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';

/** Every problem type and its status; the 5xx ones must never be answered to bad input. */
const PROBLEM_STATUS: Record<ErrorType, number> = {
  invalid_parameter: 400,
  unauthenticated: 401,
  entitlement_required: 403,
  plan_required: 403,
  out_of_scope: 403,
  not_found: 404,
  rate_limited: 429,
  query_too_complex: 400,
  unsupported_cypher: 400,
  unsupported_version: 400,
  headers_too_large: 431,
  request_timeout: 408,
  response_too_large: 400,
  range_not_satisfiable: 416,
  upstream_unavailable: 503,
  internal: 500,
};
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 30);
const PROPERTY_TIMEOUT = 60_000;

// ---------------------------------------------------------------------------------------
// The stack, the key, and real slugs from the demo graph

let s: Stack;
let key: string;
let origin: URL;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
/** A real slug of each kind (`contest`, `candidacy`, `party`, `office`, `region`), from the demo. */
const demo = new Map<string, string>();

interface Reply {
  status: number;
  contentType: string;
  text: string;
  body: any;
}

/** GET `path` exactly as written (already percent-encoded), with these headers. */
function send(
  path: string,
  headers: Record<string, string | string[]> = { Authorization: `Bearer ${key}` },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: origin.hostname, port: origin.port, path, method: 'GET', headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  origin = new URL(s.url);
  // Contact and geography, every state; Enterprise so a few thousand requests stay under the limit.
  key = await s.key({
    plan: Plan.PLAN_ENTERPRISE,
    rateLimitPerMinute: 1_000_000,
    entitlements: { contact: true, geography: true, states: [], tiers: [] },
  });
  const contests = await send('/v1/contests?state=co&limit=200');
  expect(contests.status).toBe(200);
  // The most confident candidacy with a party, so the examples' min_confidence keeps it.
  let best: { contest: any; candidacy: any } | undefined;
  for (const summary of contests.body.data as any[]) {
    const contest = (await send(`/v1/contests/${enc(summary.slug)}`)).body;
    for (const candidacy of contest.candidacies as any[]) {
      if (
        typeof candidacy.party_slug === 'string' &&
        (best === undefined || candidacy.confidence > best.candidacy.confidence)
      )
        best = { contest, candidacy };
    }
  }
  if (best !== undefined) {
    demo.set('contest', best.contest.slug);
    demo.set('candidacy', best.candidacy.slug);
    demo.set('party', best.candidacy.party_slug);
    demo.set('office', best.contest.office_slug);
    demo.set('region', best.contest.region.slug);
    STACK_VALUES['min_confidence'] = String(Math.floor(best.candidacy.confidence * 100) / 100);
  }
  expect(demo.get('contest'), 'a demo contest with a party candidacy').toBeDefined();
}, scaled(60_000));
afterAll(async () => {
  agent.destroy();
  await s?.stop();
});

// ---------------------------------------------------------------------------------------
// Valid requests, derived from each ParamSpec

/** `contest` for a schema pattern `^contest:…`. */
function slugKind(spec: ParamSpec): string | undefined {
  const pattern = spec.schema.type === 'string' ? spec.schema.pattern : undefined;
  return pattern === undefined ? undefined : /^\^(\w+):/.exec(pattern)?.[1];
}

/**
 * Values this stack can answer where the documented example needs what it does not have:
 * the example address is a street address, which only the Census geocoder reads; the
 * example min_confidence is above every demo candidacy (set from the demo in beforeAll).
 */
const STACK_VALUES: Record<string, string> = { address: '80202' };

/** The valid value of a parameter in the base request; undefined: left out. */
function validValue(spec: ParamSpec): string | undefined {
  if (spec.in === 'query' && STACK_VALUES[spec.name] !== undefined) return STACK_VALUES[spec.name];
  const kind = slugKind(spec);
  if (kind !== undefined && demo.has(kind)) return demo.get(kind);
  return spec.example === undefined ? undefined : String(spec.example);
}

/** One hostile replacement of a parameter, as it goes on the wire. */
type Hostile =
  | { kind: 'value'; value: string } // percent-encoded with encodeURIComponent
  | { kind: 'raw'; raw: string } // written into the URL as is (malformed escapes)
  | { kind: 'repeat'; values: string[] } // the parameter given more than once
  | { kind: 'absent' }; // left out

const enc = encodeURIComponent;

function requestPath(ep: Endpoint, target?: ParamSpec, hostile?: Hostile, extra?: string): string {
  let path = ep.path;
  const query: string[] = [];
  for (const spec of ep.params) {
    const h = spec === target ? hostile : undefined;
    if (spec.in === 'path') {
      const v =
        h === undefined ? enc(validValue(spec)!) : h.kind === 'value' ? enc(h.value) : h.kind === 'raw' ? h.raw : '';
      path = path.replace(`{${spec.name}}`, v);
      continue;
    }
    if (h === undefined) {
      const v = validValue(spec);
      if (v !== undefined) query.push(`${enc(spec.name)}=${enc(v)}`);
    } else if (h.kind === 'value') query.push(`${enc(spec.name)}=${enc(h.value)}`);
    else if (h.kind === 'raw') query.push(`${enc(spec.name)}=${h.raw}`);
    else if (h.kind === 'repeat') for (const v of h.values) query.push(`${enc(spec.name)}=${enc(v)}`);
  }
  if (extra !== undefined) query.push(extra);
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

/** What the gateway reads for the parameter: the decoded string, strings if repeated, undefined if absent, null if undecodable. */
function received(spec: ParamSpec, h: Hostile): string | string[] | undefined | null {
  switch (h.kind) {
    case 'value':
      return h.value;
    case 'absent':
      return undefined;
    case 'repeat':
      return h.values;
    case 'raw':
      if (spec.in === 'query') return qsUnescape(h.raw.replace(/\+/g, ' '));
      try {
        return decodeURIComponent(h.raw);
      } catch {
        return null;
      }
  }
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/**
 * Whether the parameter's documented schema refuses what the gateway reads: such a request
 * must be a 400 invalid_parameter naming it. 'valid' only means the schema accepts it; the
 * service may still refuse it (a range only the geo service knows, an unknown address).
 */
function verdict(spec: ParamSpec, got: string | string[] | undefined | null): 'invalid' | 'valid' {
  if (got === null || Array.isArray(got)) return 'invalid';
  if (got === undefined) return spec.required ? 'invalid' : 'valid';
  if (got.trim() === '' || got.length > MAX_PARAM_LENGTH) return 'invalid';
  const schema = spec.schema;
  if (schema.type !== 'string') {
    const n = (schema.type === 'integer' ? INTEGER : DECIMAL).test(got.trim()) ? Number(got) : Number.NaN;
    if (!Number.isFinite(n)) return 'invalid';
    return n < (schema.minimum ?? -Infinity) || n > (schema.maximum ?? Infinity) ? 'invalid' : 'valid';
  }
  // A cursor is opaque and signed: nothing this file makes up is one the API issued.
  if (spec.name === 'cursor') return 'invalid';
  if (schema.format === 'date' && !isIsoDate(got)) return 'invalid';
  if (schema.maxLength !== undefined && got.length > schema.maxLength) return 'invalid';
  if (schema.minLength !== undefined && got.length < schema.minLength) return 'invalid';
  if (schema.enum !== undefined && !schema.enum.includes(got.toLowerCase())) return 'invalid';
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(got)) return 'invalid';
  return 'valid';
}

const show = (path: string) => (path.length > 300 ? `${path.slice(0, 300)}… (${path.length} chars)` : path);

/**
 * The contract for any answer to bad input: never 5xx; a 4xx is problem+json of a known
 * type with its status, naming a field; an invalid_parameter names `field` when given.
 */
function expectProblemContract(r: Reply, what: string, field?: string): void {
  expect(r.status, `${what}: never 5xx; got ${r.status} ${r.text.slice(0, 200)}`).toBeLessThan(500);
  if (r.status < 400) {
    expect(r.status, `${what}: a request that is not refused is answered`).toBe(200);
    return;
  }
  expect(r.contentType, `${what}: content-type of a ${r.status}`).toMatch(/^application\/problem\+json/);
  expect(r.body, `${what}: problem body ${r.text.slice(0, 200)}`).toBeTypeOf('object');
  expect(Object.keys(PROBLEM_STATUS), `${what}: known problem type`).toContain(r.body.type);
  expect(r.body.status, `${what}: body.status`).toBe(r.status);
  expect(PROBLEM_STATUS[r.body.type as ErrorType], `${what}: status of ${r.body.type}`).toBe(r.status);
  expect(r.body.request_id, `${what}: request_id`).toMatch(/^req_/);
  expect(r.body.field, `${what}: a ${r.status} ${r.body.type} names its field (${r.body.detail})`).toBeTypeOf('string');
  expect(r.body.field.length, `${what}: field is not empty`).toBeGreaterThan(0);
  if (field !== undefined && r.body.type === 'invalid_parameter')
    expect(r.body.field, `${what}: invalid_parameter names the parameter replaced`).toBe(field);
}

function expectInvalidParameter(r: Reply, what: string, field: string): void {
  expect(r.status, `${what}: the schema refuses it, so 400; got ${r.status} ${r.text.slice(0, 200)}`).toBe(400);
  expect(r.body?.type, what).toBe('invalid_parameter');
  expect(r.body?.field, what).toBe(field);
}

// ---------------------------------------------------------------------------------------
// Hostile values

const char = (from: number, to: number) => fc.integer({ min: from, max: to }).map((c) => String.fromCharCode(c));
const NUMBERISH = [
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '-1e308',
  '1e309',
  '-1e309',
  '5e-324',
  '-0',
  '0x1A',
  '0b11',
  '0o7',
  '1_000',
  '1,5',
  '.5',
  '5.',
  '+.5e1',
  '--1',
  '1e',
  'e1',
  '١٢٣',
  '１２',
  '12abc',
  '0.1.2',
];
const WORDS = [
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '{"a":1}',
  '[1,2]',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '\\u0000',
  '${jndi:ldap://x}',
];
/** Address-shaped: coordinates out of range or not numbers, ZIPs, cities and states nobody has. */
const PLACES = [
  '91,181',
  '-91,-181',
  'NaN,NaN',
  '1e308,-1e308',
  '0,0',
  ',',
  '00000',
  '99999',
  '80202-0000',
  '8020',
  'Nowhere, ZZ',
  'Atlantis, CO',
  'Denver, ZZ',
  ', CO',
  'Denver,',
  'Denver, CO, CO',
];
/** Percent-escapes that do not decode to UTF-8 (or do not decode at all). */
const BAD_ESCAPES = [
  '%',
  '%%',
  '%zz',
  '%2',
  '%u0041',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF',
  '%FE%FF',
  '%00',
  '%%31',
  '%C3',
  '%F4%90%80%80',
];

/** Values 10 KB long on the wire (and just around MAX_PARAM_LENGTH), kept under the 16 KB request-head limit of node's HTTP server. */
function longValues(valid: string | undefined, kind: string | undefined): string[] {
  const tenKb = 10_240;
  const out = [
    'a'.repeat(MAX_PARAM_LENGTH - 1),
    'a'.repeat(MAX_PARAM_LENGTH),
    'a'.repeat(MAX_PARAM_LENGTH + 1),
    'a'.repeat(tenKb),
    '9'.repeat(tenKb),
    `0.${'0'.repeat(tenKb)}1`,
    'é'.repeat(MAX_PARAM_LENGTH + 1),
    '𝕏'.repeat(1_025),
    '\u0000'.repeat(tenKb / 3),
  ];
  if (valid !== undefined)
    out.push(valid + ' '.repeat(MAX_PARAM_LENGTH), valid.repeat(Math.ceil(tenKb / valid.length)));
  if (kind !== undefined)
    out.push(
      `${kind}:${'a'.repeat(MAX_PARAM_LENGTH - kind.length - 1)}`,
      `${kind}:${'a'.repeat(tenKb)}`,
      `${kind}:${'a-'.repeat(tenKb / 2)}a`,
    );
  return out;
}

/** The valid value bent slightly: case, padding, a control character, a lookalike, a suffix. */
function mutations(valid: string): string[] {
  return [
    valid.toUpperCase(),
    ` ${valid}`,
    `${valid} `,
    `${valid}\n`,
    `${valid}\u0000`,
    `${valid}\t`,
    `\u200b${valid}`,
    `${valid}\u0301`,
    valid.replace(/a/g, 'а'),
    valid.slice(0, -1),
    `${valid}${valid}`,
    `${valid}&x=1`,
    `${valid}#x`,
    `${valid}/`,
    `${valid}/..`,
    `${valid}%`,
    `${valid}-`,
    `${valid}--x`,
  ];
}

/** Out of range and not quite numbers, from the schema's own bounds. */
function numberEdges(spec: ParamSpec): string[] {
  if (spec.schema.type !== 'number' && spec.schema.type !== 'integer') return [];
  const { minimum, maximum } = spec.schema;
  const out = ['1.5', '1e2', '+5', ' 5 ', '0', '-1', '0.0', '1e-400'];
  if (minimum !== undefined)
    out.push(String(minimum), String(minimum - 1), `${minimum}.000000001`, String(minimum - 1e-9));
  if (maximum !== undefined)
    out.push(String(maximum), String(maximum + 1), String(maximum + 1e-9), `${maximum}.0000000000000001`);
  return out;
}

/** A single hostile value (not a repeat and not an absence). */
function hostileString(spec: ParamSpec): fc.Arbitrary<string> {
  const valid = validValue(spec);
  const kind = slugKind(spec) ?? (spec.in === 'path' ? 'x' : undefined);
  const arbs: fc.Arbitrary<string>[] = [
    fc.constantFrom(...NUMBERISH, '', ' ', '\t', '  \n '),
    fc.oneof(fc.double().map(String), fc.integer().map(String), fc.bigInt().map(String)), // numbers, for strings
    fc.constantFrom(...WORDS),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), // any code point
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), // printable graphemes
    fc.string({ unit: char(0, 0x1f), minLength: 1, maxLength: 6 }), // control characters
    fc
      .tuple(
        fc.string({ unit: char(0, 0x1f), minLength: 1, maxLength: 2 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      )
      .map(([c, a]) => a + c + a),
    fc.constantFrom(...longValues(valid, kind)),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 24 }), // strings, for numbers
  ];
  // A free-form string (an address) is read by a service, not the schema: probe it harder.
  const freeForm =
    spec.schema.type === 'string' &&
    spec.schema.enum === undefined &&
    spec.schema.pattern === undefined &&
    spec.schema.format === undefined &&
    spec.name !== 'cursor';
  for (let i = freeForm ? 5 : 1; i > 0; i--) arbs.push(fc.constantFrom(...PLACES));
  if (valid !== undefined) arbs.push(fc.constantFrom(...mutations(valid)));
  if (kind !== undefined) {
    arbs.push(
      fc
        .constantFrom('contest', 'candidacy', 'party', 'office', 'region', kind.toUpperCase(), 'x')
        .chain((k) =>
          fc
            .oneof(fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+){0,4}$/), fc.string({ unit: 'grapheme', maxLength: 12 }))
            .map((tail) => `${k}:${tail}`),
        ),
    );
    arbs.push(fc.integer({ min: 40, max: 1_500 }).map((n) => `${kind}:${'a-'.repeat(n)}a`)); // long, well-formed, unknown
  }
  const edges = numberEdges(spec);
  if (edges.length > 0) arbs.push(fc.constantFrom(...edges));
  return fc.oneof(...arbs);
}

/**
 * Node's HTTP server answers a request head over 16 KB with a bare 431 before any route
 * runs; values stay 10 KB on the wire, so repeats of them are kept under that too.
 */
const fitsRequestHead = (values: readonly string[]) => values.reduce((n, v) => n + enc(v).length, 0) <= 12_000;

/**
 * Whether a header's value(s) passed node's 16 KB request-head limit, and if so checks the
 * refusal: two 10 KB values are answered 431 headers_too_large before any route reads them.
 */
function refusedAsTooLarge(r: Awaited<ReturnType<typeof send>>, what: string, value: string | string[]): boolean {
  if ([value].flat().join('').length <= 16_384) return false;
  expect(r.status, what).toBe(431);
  expect(r.body, what).toMatchObject({ type: 'headers_too_large', field: 'headers' });
  return true;
}

function hostile(spec: ParamSpec): fc.Arbitrary<Hostile> {
  const one = hostileString(spec);
  const raw = fc
    .array(fc.constantFrom(...BAD_ESCAPES, 'a', '1', '-', ':'), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join(''))
    .filter((r) => r.includes('%'))
    .map((r): Hostile => ({ kind: 'raw', raw: r }));
  const value = one.map((v): Hostile => ({ kind: 'value', value: v }));
  if (spec.in === 'path') {
    // An empty segment is another route (`/v1/contests/` is the list), not a bad slug.
    return fc.oneof(
      { arbitrary: value.filter((h) => h.kind === 'value' && h.value !== ''), weight: 6 },
      { arbitrary: raw, weight: 1 },
    );
  }
  const valid = validValue(spec);
  const either = valid === undefined ? one : fc.oneof(fc.constant(valid), one);
  return fc.oneof(
    { arbitrary: value, weight: 6 },
    { arbitrary: raw, weight: 1 },
    {
      arbitrary: fc
        .array(either, { minLength: 2, maxLength: 3 })
        .filter(fitsRequestHead)
        .map((values): Hostile => ({ kind: 'repeat', values })),
      weight: 1,
    },
    { arbitrary: fc.constant<Hostile>({ kind: 'absent' }), weight: 1 },
  );
}

/** Parameter names no endpoint takes here (path-parameter names included: they are not query parameters). */
function unknownName(ep: Endpoint): fc.Arbitrary<string> {
  const known = new Set(ep.params.filter((p) => p.in === 'query').map((p) => p.name));
  const others = [...new Set(ENDPOINTS.flatMap((e) => e.params.map((p) => p.name)))];
  const bent = others.flatMap((n) => [n.toUpperCase(), `${n}[]`, `${n} `, ` ${n}`, `${n}[0]`, `${n}.x`, `${n}\u0000`]);
  return fc
    .oneof(
      fc.constantFrom(
        ...others,
        ...bent,
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        'hasOwnProperty',
        'valueOf',
        'page',
        'offset',
        'q',
        'callback',
        'a'.repeat(10_000),
      ),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
      fc.string({ unit: char(0, 0x1f), minLength: 1, maxLength: 4 }),
    )
    .filter((n) => !known.has(n));
}

// ---------------------------------------------------------------------------------------
// The properties

describe.each(ENDPOINTS.map((ep) => [ep.operationId, ep] as const))('%s: hostile parameters', (_id, ep) => {
  it('answers the valid base request (the premise of every property below)', async () => {
    const path = requestPath(ep);
    const r = await send(path);
    expect(r.status, `GET ${path}: the base request is answered: ${r.text.slice(0, 300)}`).toBe(200);
  });

  it.each(ep.params.map((p) => [`${p.in} ${p.name}`, p] as const))(
    '%s: any replacement is refused as 4xx problem+json naming it, never 5xx',
    async (_name, spec) => {
      await fc.assert(
        fc.asyncProperty(hostile(spec), async (h) => {
          const path = requestPath(ep, spec, h);
          const what = `GET ${show(path)}`;
          const r = await send(path);
          expectProblemContract(r, what, spec.name);
          if (verdict(spec, received(spec, h)) === 'invalid') expectInvalidParameter(r, what, spec.name);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'refuses an unknown extra parameter, naming it',
    async () => {
      const known = new Set(ep.params.filter((p) => p.in === 'query').map((p) => p.name));
      const name = fc.oneof(
        { arbitrary: unknownName(ep).map((n) => ({ wire: enc(n), name: n })), weight: 5 },
        // malformed escapes in the name itself: the gateway reads them as querystring does
        {
          arbitrary: fc
            .array(fc.constantFrom(...BAD_ESCAPES, 'x', '1'), { minLength: 1, maxLength: 3 })
            .map((parts) => parts.join(''))
            .map((raw) => ({ wire: raw, name: qsUnescape(raw) }))
            .filter((p) => !known.has(p.name)),
          weight: 1,
        },
      );
      const value = fc.option(
        fc.oneof(
          fc.constant(''),
          fc.string({ unit: 'grapheme', maxLength: 20 }),
          fc.constantFrom(...NUMBERISH, ...WORDS),
        ),
      );
      await fc.assert(
        fc.asyncProperty(name, value, async (p, v) => {
          const path = requestPath(ep, undefined, undefined, v === null ? p.wire : `${p.wire}=${enc(v)}`);
          const what = `GET ${show(path)}`;
          const r = await send(path);
          expectInvalidParameter(r, what, p.name.slice(0, 100));
          expectProblemContract(r, what, p.name.slice(0, 100));
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------
// Hostile headers

/** What node's HTTP client will put in a header: tab, visible ASCII and Latin-1. */
const headerChar = fc.oneof(char(0x20, 0x7e), char(0x80, 0xff), fc.constant('\t'));
const headerString = (maxLength: number) => fc.string({ unit: headerChar, maxLength });

describe('hostile headers', () => {
  /** By operationId, so a counterexample reads short. */
  const anyEndpoint = fc.constantFrom(...ENDPOINTS.map((ep) => ep.operationId));
  const endpoint = (id: string) => ENDPOINTS.find((ep) => ep.operationId === id)!;

  it(
    'Authorization: a hostile value is 401 unauthenticated problem+json naming it (or 200 when it is the key after all; 400 when repeated), never 5xx',
    async () => {
      const authorization = fc.oneof(
        fc.constantFrom(
          '',
          ' ',
          '\t',
          'Bearer',
          'Bearer ',
          'Bearer  ',
          'bearer',
          'BEARER',
          'Bearer\t',
          'Basic dXNlcjpwYXNz',
          'Token abc',
          'Bearer null',
          'Bearer undefined',
          'Bearer NaN',
          'Bearer 1e308',
          'Bearer -1e308',
          'Bearer cg_test_',
          'Bearer cg_live_x',
          'Bearer Bearer',
          'Bearer %00',
          'Bearer \u00ff',
          'Bearer ' + 'a'.repeat(10_240),
          'a'.repeat(10_240),
        ),
        fc.constantFrom(
          `Bearer ${key}${key}`,
          `Bearer ${key} x`,
          key,
          `Bearer\t${key}`,
          `Bearer ${key.slice(0, -1)}`,
          `Bearer ${key.toUpperCase()}`,
          `Bearer ${key}\u00e9`,
          `Bearer  ${key}  `,
          `bearer ${key}`,
          `Bearer ${key},Bearer ${key}`,
        ),
        headerString(60),
        headerString(40).map((v) => `Bearer ${v}`),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 }).map((v) => `Bearer ${v}`),
      );
      const value = fc.oneof(
        { arbitrary: authorization.map((v): string | string[] => v), weight: 5 },
        {
          arbitrary: fc.array(authorization, { minLength: 2, maxLength: 2 }).map((v): string | string[] => v),
          weight: 1,
        },
      );
      await fc.assert(
        fc.asyncProperty(anyEndpoint, value, async (id, auth) => {
          const path = requestPath(endpoint(id));
          const what = `GET ${path} with Authorization: ${JSON.stringify(auth).slice(0, 200)}`;
          const r = await send(path, { Authorization: auth });
          expectProblemContract(r, what, 'Authorization');
          if (refusedAsTooLarge(r, what, auth)) return;
          // Repeated Authorization headers are refused whatever they hold: which one is meant?
          if (Array.isArray(auth)) {
            expect(r.status, what).toBe(400);
            expect(r.body, what).toMatchObject({ type: 'invalid_parameter', field: 'Authorization' });
            return;
          }
          const sent = auth.replace(/^[ \t]+|[ \t]+$/g, '');
          const isTheKey = /^bearer +(.*?) *$/i.exec(sent)?.[1] === key;
          expect(r.status, `${what}: ${r.text.slice(0, 200)}`).toBe(isTheKey ? 200 : 401);
          if (!isTheKey) expect(r.body, what).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
        }),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'Civic-Version: a hostile value is 400 unsupported_version naming it (or the known version it is), never 5xx',
    async () => {
      const version = fc.oneof(
        fc.constantFrom(
          '',
          ' ',
          ...API_VERSIONS,
          ...API_VERSIONS.map((v) => ` ${v} `),
          ...API_VERSIONS.map((v) => `${v}, ${v}`),
          '2026-11-1',
          '2026-13-01',
          '2026-02-30',
          '2026-11-01T00:00:00Z',
          '1e308',
          '-1e308',
          'NaN',
          'latest',
          '*',
          '0',
          '-1',
          '9999-12-31',
          '0000-00-00',
          '20261101',
          'v1',
          '2026-11-01\t',
          'a'.repeat(10_240),
          '9'.repeat(10_240),
        ),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        headerString(40),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
      );
      const value = fc.oneof(
        { arbitrary: version.map((v): string | string[] => v), weight: 5 },
        { arbitrary: fc.array(version, { minLength: 2, maxLength: 2 }).map((v): string | string[] => v), weight: 1 },
      );
      await fc.assert(
        fc.asyncProperty(anyEndpoint, value, async (id, civicVersion) => {
          const path = requestPath(endpoint(id));
          const what = `GET ${path} with Civic-Version: ${JSON.stringify(civicVersion).slice(0, 200)}`;
          const r = await send(path, { Authorization: `Bearer ${key}`, 'Civic-Version': civicVersion });
          expectProblemContract(r, what, 'Civic-Version');
          if (refusedAsTooLarge(r, what, civicVersion)) return;
          const seen = (Array.isArray(civicVersion) ? civicVersion.join(', ') : civicVersion).trim();
          const known = seen === '' || (API_VERSIONS as readonly string[]).includes(seen);
          if (!known) {
            expect(r.status, `${what}: status ${r.text.slice(0, 200)}`).toBe(400);
            expect(r.body, what).toMatchObject({ type: 'unsupported_version', field: 'Civic-Version' });
          } else {
            expect(r.body?.type, what).not.toBe('unsupported_version');
          }
        }),
        { numRuns: 60 },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------
// The smallest requests the properties above found breaking the contract, kept as plain
// cases so they fail deterministically until the gateway is fixed.

describe('reproducers found by the properties', () => {
  const pathEndpoints = ENDPOINTS.filter((ep) => ep.params.some((p) => p.in === 'path'));

  it.each(pathEndpoints.map((ep) => [ep.path, ep] as const))(
    '%s with a malformed percent-escape in the path parameter is 400 naming it, not 500',
    async (_path, ep) => {
      const spec = ep.params.find((p) => p.in === 'path')!;
      for (const raw of ['%', '%zz', '%E0%A4%A']) {
        const path = requestPath(ep, spec, { kind: 'raw', raw });
        const r = await send(path);
        expect(r.status, `GET ${path}: ${r.text.slice(0, 200)}`).toBe(400);
        expect(r.body, `GET ${path}`).toMatchObject({ type: 'invalid_parameter', field: spec.name });
      }
    },
  );

  it('an address the embedded geocoder cannot place is a 404 naming `address`', async () => {
    for (const address of ['99999', 'Nowhere, ZZ', 'Atlantis, CO']) {
      const path = `/v1/districts_by_address?address=${enc(address)}`;
      const r = await send(path);
      expect(r.status, `GET ${path}`).toBe(404);
      expect(r.body, `GET ${path}`).toMatchObject({ type: 'not_found', field: 'address' });
    }
  });

  it('two 10 KB Civic-Version values (over the 16 KB request head) are a 431 headers_too_large with a request id', async () => {
    const r = await send('/v1/meta/layers', {
      Authorization: `Bearer ${key}`,
      'Civic-Version': ['9'.repeat(10_240), '9'.repeat(10_240)],
    });
    expectProblemContract(r, 'two 10 KB Civic-Version values');
    expect(r.status).toBe(431);
    expect(r.body).toMatchObject({ type: 'headers_too_large', field: 'headers' });
  });

  // Found by the Authorization property (seed 1249700847): it expected the 400 for a repeated header.
  it('two 10 KB Authorization values (over the 16 KB request head) are a 431 headers_too_large, not the 400 for a repeated header', async () => {
    const r = await send('/v1/meta/layers', { Authorization: ['a'.repeat(10_240), `Bearer ${'a'.repeat(10_240)}`] });
    expectProblemContract(r, 'two 10 KB Authorization values');
    expect(r.status).toBe(431);
    expect(r.body).toMatchObject({ type: 'headers_too_large', field: 'headers' });
  });

  it('a well-formed but unknown bearer key is a 401 naming Authorization, as a malformed header is', async () => {
    const r = await send('/v1/meta/layers', { Authorization: 'Bearer nope' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
  });
});
