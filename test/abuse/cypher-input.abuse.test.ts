/**
 * Hostile input to the Cypher layer: whatever arrives as the body, the query or its
 * parameters, the answer is never 5xx; a refusal is problem+json of a known type naming a
 * field. Queries that would exhaust the parser's or the evaluator's stack (deep brackets,
 * deep parameters) are refused before they run, and long operator chains are answered.
 * PROPERTY_RUNS=300 runs each property longer (default 60).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { scaled } from '@civicgraph/kit/testing';
import { send, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 60);
const KNOWN = ['invalid_parameter', 'unsupported_cypher', 'query_too_complex', 'entitlement_required'];

/** Fragments of Cypher, valid and not, for queries that get past the parser's first tokens. */
const FRAGMENTS = [
  'MATCH',
  'OPTIONAL MATCH',
  'WHERE',
  'WITH',
  'UNWIND',
  'RETURN',
  'ORDER BY',
  'SKIP',
  'LIMIT',
  'DISTINCT',
  'AS',
  'CREATE',
  'DELETE',
  'SET',
  'CALL',
  'UNION',
  'AND',
  'OR',
  'NOT',
  'IN',
  'STARTS WITH',
  'IS NULL',
  '(n)',
  '(n:Candidacy)',
  '(c:Contest {state: $s})',
  '-->',
  '<--',
  '-[:OF_PARTY]->',
  '-[*1..2]-',
  '-[*]-',
  'n',
  'n.name',
  'n.campaignEmails',
  'count(*)',
  'collect(n)',
  'sum(n.confidence)',
  'size(',
  ')',
  '(',
  '[',
  ']',
  '{',
  '}',
  ',',
  '$s',
  '$missing',
  "'x'",
  '"y"',
  '1',
  '-1',
  '0.5',
  '1/0',
  '=',
  '<>',
  '<',
  '+',
  '*',
  '%',
  'null',
  'true',
];

describe('Cypher: hostile input', () => {
  let s: Stack;
  let key: string;
  const ask = (body: unknown) => send(`${s.url}/v1/cypher`, 'POST', key, body);
  const expectRefusedOrAnswered = (res: { status: number; body: any; headers: Headers }, what: unknown) => {
    expect(res.status, JSON.stringify(what).slice(0, 200)).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(KNOWN, JSON.stringify(res.body)).toContain(res.body.type);
      expect(typeof res.body.field, JSON.stringify(res.body)).toBe('string');
    }
  };

  beforeAll(async () => {
    s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
    key = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 1_000_000 });
  }, scaled(60_000));
  afterAll(() => s?.stop());

  it(
    'answers or refuses any query built of Cypher fragments, never with a 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 14 }), async (parts) => {
          const query = parts.join(' ');
          expectRefusedOrAnswered(await ask({ query, parameters: { s: 'co' } }), query);
        }),
        { numRuns: RUNS * 3, seed: 24 },
      );
    },
    scaled(120_000),
  );

  it(
    'answers or refuses any text and any parameters, never with a 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.fullUnicodeString({ maxLength: 200 }), fc.jsonValue({ maxDepth: 4 }), async (query, p) => {
          expectRefusedOrAnswered(await ask({ query: `RETURN ${query}`, parameters: { p } }), query);
          expectRefusedOrAnswered(await ask({ query: 'RETURN $p', parameters: { p } }), p);
        }),
        { numRuns: RUNS, seed: 25 },
      );
    },
    scaled(120_000),
  );

  it('refuses brackets nested past the limit before parsing, naming where', async () => {
    const res = await ask({ query: `RETURN ${'('.repeat(5_000)}1${')'.repeat(5_000)}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'query_too_complex', field: 'query' });
    expect(res.body.detail).toContain('more than 24 deep (line 1, column 32)');
    // Brackets inside a string are text, not nesting.
    const quoted = await ask({ query: `RETURN '${'('.repeat(100)}' AS s` });
    expect(quoted.status).toBe(200);
  });

  it('refuses parameters nested past the limit, naming parameters', async () => {
    // Written by hand: JSON.stringify of a value this deep would itself exhaust the stack.
    const body = `{"query":"RETURN $p","parameters":{"p":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`;
    const res = await ask(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'invalid_parameter', field: 'parameters' });
  });

  it('answers long operator chains within the query length', async () => {
    const nots = await ask({ query: `RETURN ${'NOT '.repeat(3_000)}true` });
    expect(nots.body.rows).toEqual([[true]]);
    const sum = await ask({ query: `RETURN ${Array(3_000).fill('1').join('+')}` });
    expect(sum.body.rows).toEqual([[3_000]]);
  });
});
