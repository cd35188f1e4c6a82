import { afterAll, beforeAll, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { probeRedis, serviceAvailability } from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import type { Gateway } from '@civicgraph/gateway';
import { get, graphql, startStack, type Stack } from '../harness/stack.js';

/**
 * One budget per key, whichever gateway and whichever layer a request goes through: two
 * gateways in front of the same services count in the same Redis.
 */

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redis = await serviceAvailability(`Redis at ${redisUrl}`, () => probeRedis(redisUrl));

describeWithService('per-key rate limits shared by two gateways through Redis', redis, () => {
  let s: Stack;
  let second: Gateway;

  beforeAll(async () => {
    s = await startStack({ gateway: { rateLimitRedisUrl: redisUrl } });
    second = await s.addGateway();
  }, scaled(60_000));
  afterAll(() => s?.stop());

  /** Waits out the end of a minute, so a run of requests stays inside one window. */
  async function freshWindowRoom(seconds: number): Promise<void> {
    const left = 60 - ((Date.now() / 1000) % 60);
    if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 50));
  }

  it('lets an Explore key make exactly 60 requests a minute across both gateways and both layers, then 429 with Retry-After', async () => {
    const key = await s.key({ plan: Plan.PLAN_EXPLORE });
    await freshWindowRoom(10);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 70; i++) {
      const url = i % 2 === 0 ? s.url : second.url;
      last = i % 3 === 0 ? await graphql(url, key, '{ __typename }') : await get(`${url}/v1/meta/layers`, key);
      statuses.push(last.status);
      if (last.status === 200) expect(Number(last.headers.get('civic-ratelimit-remaining'))).toBe(60 - statuses.length);
    }
    expect(statuses.filter((x) => x === 200)).toHaveLength(60);
    expect(statuses.slice(60).every((x) => x === 429)).toBe(true);
    expect(last!.headers.get('civic-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('civic-ratelimit-limit')).toBe('60');
  });

  it('does not count a 304 at either gateway', async () => {
    const key = await s.key({ plan: Plan.PLAN_EXPLORE });
    await freshWindowRoom(5);
    const first = await get(`${s.url}/v1/meta/layers`, key);
    const etag = first.headers.get('etag')!;
    for (const url of [s.url, second.url, s.url]) {
      const revalidated = await get(`${url}/v1/meta/layers`, key, { 'If-None-Match': etag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('civic-ratelimit-remaining')).toBe('59');
    }
    expect((await get(`${second.url}/v1/meta/layers`, key)).headers.get('civic-ratelimit-remaining')).toBe('58');
  });

  it('reports shared counting in readiness', async () => {
    const ready = await fetch(`${second.url}/readyz`);
    expect(((await ready.json()) as { rate_limits: string }).rate_limits).toBe('ok');
  });
});
