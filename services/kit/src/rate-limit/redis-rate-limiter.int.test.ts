import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { randomBase62 } from '../base62.js';
import { describeWithService } from '../testing/describe-with-service.js';
import { serviceAvailability, withTimeout } from '../bus/require-service.js';
import { FlakyProxy } from '../testing/flaky-proxy.js';
import { describeRateLimiterContract } from '../testing/rate-limiter.contract.js';
import { RedisRateLimiter, probeRedis, type RedisRateLimiterOptions } from './redis-rate-limiter.js';
import { scaled } from '../testing/time-scale.js';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = await serviceAvailability(`Redis at ${url}`, () => probeRedis(url));
/** Every limiter of this run gets its own prefix: runs sharing one Redis never collide. */
const run = randomBase62(8);
const prefix = (): string => `civic:rl:test:${run}:${randomBase62(6)}:`;
const t0 = 1_800_000_000_000;
/** Reconnects back off by up to 2 s; a generous ceiling, never a sleep. */
const WAIT = { timeout: scaled(10_000), interval: 20 };

describeWithService('RedisRateLimiter', redis, () => {
  describeRateLimiterContract('redis', () => RedisRateLimiter.connect({ url, keyPrefix: prefix(), log: quiet() }));

  describe('shared by two gateways', () => {
    const limiters: RedisRateLimiter[] = [];
    afterEach(async () => {
      await Promise.all(limiters.splice(0).map((l) => l.close()));
    });

    test('two connections consuming concurrently allow exactly `limit` requests in total', async () => {
      const keyPrefix = prefix();
      for (let i = 0; i < 2; i++) limiters.push(await RedisRateLimiter.connect({ url, keyPrefix, log: quiet() }));
      const attempts = limiters.flatMap((l) => Array.from({ length: 100 }, () => l.consume('k', 60, t0)));
      const decisions = await Promise.all(attempts);
      expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
      expect(limiters.map((l) => l.shared)).toEqual([true, true]);
      expect((await limiters[1]!.peek('k', 60, t0)).remaining).toBe(0);
    });
  });

  describe('through a connection that fails', () => {
    let proxy: FlakyProxy;
    let limiter: RedisRateLimiter;
    let log: ReturnType<typeof captured>;
    beforeEach(async () => {
      proxy = await FlakyProxy.start(new URL(url));
      log = captured();
      limiter = await RedisRateLimiter.connect({ url: proxy.url, keyPrefix: prefix(), log: log.logger });
    });
    afterEach(async () => {
      await limiter.close();
      await proxy.stop();
    });

    test('answers from the local fallback during an outage, warns once, and shares again after', async () => {
      expect(limiter.shared).toBe(true);
      await limiter.consume('k', 3, t0);
      proxy.down();
      await expect.poll(() => limiter.shared, WAIT).toBe(false);
      const local = [];
      for (let i = 0; i < 4; i++) local.push((await limiter.consume('k', 3, t0)).allowed);
      expect(local).toEqual([true, true, true, false]);
      expect(log.warnings()).toHaveLength(1);
      proxy.up();
      await expect.poll(() => limiter.shared, WAIT).toBe(true);
      expect(await limiter.consume('k', 3, t0)).toMatchObject({ allowed: true, remaining: 1 });
      expect(log.warnings()).toHaveLength(1);
    });

    test('a command Redis leaves unanswered past commandTimeoutMs is answered locally', async () => {
      proxy.stall();
      expect(await withTimeout(limiter.consume('k', 3, t0), scaled(1_000))).toMatchObject({
        allowed: true,
        remaining: 2,
      });
      expect(limiter.shared).toBe(false);
      proxy.resume();
      await expect.poll(async () => (await limiter.peek('k', 3, t0)) && limiter.shared, WAIT).toBe(true);
    });
  });
});

describe('RedisRateLimiter without a server', () => {
  let limiter: RedisRateLimiter;
  let log: ReturnType<typeof captured>;
  beforeEach(async () => {
    log = captured();
    const options: RedisRateLimiterOptions = { url: 'redis://127.0.0.1:1', keyPrefix: prefix(), log: log.logger };
    limiter = await withTimeout(RedisRateLimiter.connect(options), scaled(3_000));
  });
  afterEach(() => limiter.close());

  test('answers every request from the local fallback instead of throwing or queueing', async () => {
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await withTimeout(limiter.consume('k', 2, t0), scaled(1_000)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(await withTimeout(limiter.peek('k', 2, t0), scaled(1_000))).toMatchObject({ allowed: false, remaining: 0 });
    expect(limiter.shared).toBe(false);
  });

  test('logs one warning for the whole outage, not one per request', async () => {
    for (let i = 0; i < 5; i++) await limiter.consume('k', 10, t0);
    expect(log.warnings()).toHaveLength(1);
  });
});

/** A pino logger whose lines are kept for assertions. */
function captured(): { logger: Logger; warnings: () => unknown[] } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => done(void lines.push(String(chunk))) });
  const warnings = (): unknown[] => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
  return { logger: pino({ level: 'info' }, sink), warnings };
}

function quiet(): Logger {
  return pino({ level: 'silent' });
}
