import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, NEXT_GENERAL } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

let s: Stack;
let key: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  key = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
}, scaled(60_000));
afterAll(() => s?.stop());

/** POSTs a raw body; every answer must be a 4xx with errors carrying a stable extensions.type. */
async function post(body: string, accept = 'application/graphql-response+json') {
  const res = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: accept },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function refused(query: string, variables: Record<string, unknown> = {}) {
  const res = await post(JSON.stringify({ query, variables }));
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body.data ?? undefined).toBeUndefined();
  return res.body.errors[0].extensions;
}

/** A request refused while it ran (a resolver's check): 2xx with `data: null`, as GraphQL over HTTP answers field errors. */
async function failedField(query: string, variables: Record<string, unknown> = {}) {
  const res = await post(JSON.stringify({ query, variables }));
  expect(res.status).toBeLessThan(500);
  expect(res.body.data ?? null).toBeNull();
  return res.body.errors[0].extensions;
}

const nested = (depth: number) =>
  `{ candidacy(slug: "candidacy:x") { ${'contest { candidacies { '.repeat(depth / 2)}slug${' } }'.repeat(depth / 2)} } }`;

describe('GraphQL bad input', () => {
  it('refuses a query 100 fields deep as too complex', async () => {
    expect(await refused(nested(100))).toMatchObject({ type: 'query_too_complex', limit: 'depth', ceiling: 16 });
  });

  it('refuses a thousand aliases', async () => {
    const aliases = Array.from({ length: 1_000 }, (_, i) => `a${i}: __typename`).join(' ');
    expect((await refused(`{ ${aliases} }`)).type).toBe('query_too_complex');
    const hundredAndOne = Array.from({ length: 101 }, (_, i) => `a${i}: __typename`).join(' ');
    expect(await refused(`{ ${hundredAndOne} }`)).toMatchObject({
      type: 'query_too_complex',
      limit: 'aliases',
      score: 101,
      ceiling: 100,
    });
  });

  it('refuses a document of 15,001 characters, and accepts one of 15,000', async () => {
    const padded = (n: number) => {
      const q = '{ __typename }';
      return q + ' '.repeat(n - q.length);
    };
    expect(await refused(padded(15_001))).toMatchObject({
      type: 'query_too_complex',
      limit: 'document_size',
      score: 15_001,
      ceiling: 15_000,
    });
    expect((await post(JSON.stringify({ query: padded(15_000) }))).body).toEqual({
      data: { __typename: 'Query' },
      extensions: expect.any(Object),
    });
  });

  it('refuses a fragment bomb before it expands', async () => {
    const levels = 40;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : '__typename'} }`,
    ).join('\n');
    expect(await refused(`{ ...F0 }\n${fragments}`)).toMatchObject({ type: 'query_too_complex', limit: 'selections' });
  });

  it('refuses fragment cycles and unknown fields as invalid queries', async () => {
    expect(await refused('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }')).toMatchObject({
      type: 'invalid_parameter',
      field: 'query',
    });
    expect(await refused('{ nonsense }')).toMatchObject({ type: 'invalid_parameter', field: 'query' });
    expect(await refused('{ _regions(slugs: ["region:co"]) { slug } }')).toMatchObject({
      type: 'invalid_parameter',
      field: 'query',
    });
    expect(await refused('{ unclosed')).toMatchObject({ type: 'invalid_parameter', field: 'query' });
  });

  it('refuses variables of the wrong type, and scalars that do not parse, naming them', async () => {
    const q = 'query($lat: Float!, $date: Date!) { ballotAtPoint(lat: $lat, lng: -105, date: $date) { slug } }';
    expect(await refused(q, { lat: 'forty', date: NEXT_GENERAL })).toMatchObject({
      type: 'invalid_parameter',
      field: 'variables',
    });
    expect(await refused(q, { lat: 39.7, date: '2028-02-30' })).toMatchObject({
      type: 'invalid_parameter',
      field: 'variables',
    });
    expect(await refused('{ contests(state: "ZZ") { slug } }')).toMatchObject({
      type: 'invalid_parameter',
      field: 'state',
    });
    expect(await failedField(`{ ballotAtPoint(lat: 1e308, lng: 0, date: "${NEXT_GENERAL}") { slug } }`)).toMatchObject({
      type: 'invalid_parameter',
      field: 'lat',
    });
  });

  it('refuses a JSON array batch of 1,000 operations whole, and a body that is not JSON', async () => {
    const batch = await post(JSON.stringify(Array.from({ length: 1_000 }, () => ({ query: '{ __typename }' }))));
    expect(batch.status).toBe(400);
    expect(batch.body.errors[0].extensions).toMatchObject({ type: 'invalid_parameter', field: 'body' });
    const garbage = await post('{"query": ');
    expect(garbage.status).toBe(400);
  });

  it('refuses several operations without operationName, and an operationName the document lacks', async () => {
    expect(await refused('query A { __typename } query B { __typename }')).toMatchObject({
      type: 'invalid_parameter',
      field: 'operationName',
    });
    const res = await post(JSON.stringify({ query: 'query A { __typename }', operationName: 'Z' }));
    expect(res.body.errors[0].extensions).toMatchObject({ type: 'invalid_parameter', field: 'operationName' });
  });

  it.each([
    ['a query that is not a string', '{"query":123}', 'query'],
    ['variables that are not an object', '{"query":"{ __typename }","variables":"{bad json"}', 'variables'],
    ['variables as an array', '{"query":"{ __typename }","variables":[1,2]}', 'variables'],
    ['an operationName that is not a string', '{"query":"{ __typename }","operationName":7}', 'operationName'],
    ['extensions that are not an object', '{"query":"{ __typename }","extensions":"x"}', 'extensions'],
  ])('refuses %s as invalid_parameter naming %s, never as internal', async (_, body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ type: 'invalid_parameter', field });
  });

  it('refuses a list literal nested 10,000 deep as an invalid query, not a stack overflow', async () => {
    const deep = `{ ballotAtPoint(lat: 39.7, lng: -104.9, date: "${NEXT_GENERAL}", x: ${'['.repeat(10_000)}${']'.repeat(10_000)}) { contests { slug } } }`;
    const res = await post(JSON.stringify({ query: deep.slice(0, 14_900) }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].extensions.type).not.toBe('internal');
    expect(JSON.stringify(res.body)).not.toMatch(/call stack/i);
  });
});
