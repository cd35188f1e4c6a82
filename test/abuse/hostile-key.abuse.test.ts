import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { DENVER, get, graphql, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

/**
 * One key sending the heaviest documents its plan admits, each new (fresh alias names, so
 * no answer is reused): the response cache stays within its byte budget, bombs past
 * the ceilings are refused before they run, and another key is answered throughout.
 */
const INTROSPECTION =
  '__schema { types { name kind fields { name args { name } type { name kind ofType { name kind } } } } }';
const CACHE_BUDGET = 128 * 2 ** 20;

let s: Stack;
let hostile: string;
let victim: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  hostile = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 1_000_000 });
  // Asks once a round, for as many rounds as the flood takes: more than a self-serve minute holds.
  victim = await s.key({
    plan: Plan.PLAN_ENTERPRISE,
    rateLimitPerMinute: 10_000,
    entitlements: { contact: false, geography: true, states: [], tiers: [] },
  });
}, scaled(60_000));
afterAll(() => s?.stop());

describe('a hostile key', () => {
  it(
    'cannot grow the result cache past its byte budget, and another key is answered throughout',
    async () => {
      const heavy = (round: number, copies: number) =>
        `{ ${Array.from({ length: copies }, (_, i) => `r${round}x${i}: ${INTROSPECTION}`).join(' ')} }`;
      // 99 introspections on Build: refused by cost before anything runs (the crash was on Explore).
      const build = await s.key({ plan: Plan.PLAN_BUILD });
      const bomb = await graphql(s.url, build, heavy(0, 99));
      expect(bomb.body.errors[0].extensions).toMatchObject({ type: 'query_too_complex', limit: 'cost' });

      // Rounds until the flood has been answered half again what the budget holds.
      let answeredBytes = 0;
      let rounds = 0;
      const victimStatuses: number[] = [];
      for (let round = 1; answeredBytes < 1.5 * CACHE_BUDGET && round <= 1_000; round++) {
        rounds = round;
        const [flood, other] = await Promise.all([
          graphql(s.url, hostile, heavy(round, 60)),
          get(`${s.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, victim),
        ]);
        expect(flood.status, JSON.stringify(flood.body.errors ?? '').slice(0, 300)).toBe(200);
        answeredBytes += Buffer.byteLength(JSON.stringify(flood.body));
        victimStatuses.push(other.status);
        expect(s.gateway.responses.bytes).toBeLessThanOrEqual(CACHE_BUDGET);
      }
      // The flood answered more than the budget holds, so the budget, not the flood's size, bounded the cache.
      expect(answeredBytes).toBeGreaterThan(CACHE_BUDGET);
      expect(s.gateway.responses.size).toBeLessThan(rounds);
      expect(new Set(victimStatuses)).toEqual(new Set([200]));
    },
    scaled(300_000),
  );

  it('a self-serve key is charged by what its answers hold: heavy documents spend its minute, then 429', async () => {
    const build = await s.key({ plan: Plan.PLAN_BUILD });
    const ballot = await graphql(s.url, build, '{ __typename }');
    expect(ballot.body.extensions.cost.charged).toBe(1);
    expect(Number(ballot.headers.get('civic-ratelimit-remaining'))).toBe(599);
    const heavy = await graphql(
      s.url,
      build,
      `{ ${Array.from({ length: 30 }, (_, i) => `x${i}: ${INTROSPECTION}`).join(' ')} }`,
    );
    expect(heavy.status).toBe(200);
    const charged = heavy.body.extensions.cost.charged as number;
    expect(charged).toBeGreaterThan(100);
    const remaining = Number(heavy.headers.get('civic-ratelimit-remaining'));
    if (heavy.headers.get('civic-ratelimit-reset') === ballot.headers.get('civic-ratelimit-reset')) {
      expect(remaining).toBe(Math.max(0, 599 - charged));
    } else {
      // A new minute began during the test: the heavy answer was counted in it, whole or all but its first request.
      expect([600 - charged, 601 - charged]).toContain(remaining);
    }
    // Spend what is left with more of the same; then the key is refused until the minute ends.
    let last = heavy;
    for (let i = 0; i < 10 && last.status === 200; i++)
      last = await graphql(
        s.url,
        build,
        `{ ${Array.from({ length: 30 }, (_, j) => `y${i}x${j}: ${INTROSPECTION}`).join(' ')} }`,
      );
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).not.toBeNull();
  });
});
