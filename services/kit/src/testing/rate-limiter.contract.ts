import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

/** A limiter under test; adapters holding a connection also close it. */
export type ContractLimiter = RateLimiter & { close?: () => Promise<void> };

const minute = 60_000;
/** A fixed instant on a minute boundary, so windows are known without reading the clock. */
const t0 = 1_800_000_000_000;

/**
 * The RateLimiter contract, run against every adapter. `makeLimiter` is called per test
 * and must return a limiter that shares no counts with earlier ones (e.g. a fresh key
 * prefix), since every test reuses the same buckets and instants.
 */
export function describeRateLimiterContract(name: string, makeLimiter: () => Promise<ContractLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let rl: ContractLimiter;

    beforeEach(async () => {
      rl = await makeLimiter();
    });
    afterEach(async () => {
      await rl.close?.();
    });

    test('allows exactly `limit` requests in a minute and refuses the next', async () => {
      for (let i = 0; i < 60; i++) expect((await rl.consume('k', 60, t0 + i)).allowed).toBe(true);
      const d = await rl.consume('k', 60, t0 + 100);
      expect(d).toEqual({ allowed: false, limit: 60, remaining: 0, resetAt: (t0 + minute) / 1000 });
    });

    test('each allowed request reports what is left and when the minute ends', async () => {
      expect(await rl.consume('k', 3, t0)).toEqual({
        allowed: true,
        limit: 3,
        remaining: 2,
        resetAt: (t0 + minute) / 1000,
      });
      await rl.consume('k', 3, t0 + 1_000);
      const last = await rl.consume('k', 3, t0 + minute - 1);
      expect(last).toEqual({ allowed: true, limit: 3, remaining: 0, resetAt: (t0 + minute) / 1000 });
    });

    test('starts a fresh window at the next minute', async () => {
      for (let i = 0; i < 4; i++) await rl.consume('k', 3, t0);
      const next = await rl.consume('k', 3, t0 + minute);
      expect(next).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: (t0 + 2 * minute) / 1000 });
    });

    test('charge counts several requests after the fact, past the limit if need be, and the next request is refused', async () => {
      await rl.consume('k', 10, t0);
      expect(await rl.charge('k', 10, 7, t0 + 1)).toEqual({
        allowed: true,
        limit: 10,
        remaining: 2,
        resetAt: (t0 + minute) / 1000,
      });
      expect(await rl.charge('k', 10, 5, t0 + 2)).toEqual({
        allowed: false,
        limit: 10,
        remaining: 0,
        resetAt: (t0 + minute) / 1000,
      });
      expect((await rl.consume('k', 10, t0 + 3)).allowed).toBe(false);
      expect((await rl.consume('k', 10, t0 + minute)).allowed).toBe(true);
    });

    test('peek reports the bucket without counting', async () => {
      expect(await rl.peek('k', 5, t0)).toEqual({
        allowed: true,
        limit: 5,
        remaining: 5,
        resetAt: (t0 + minute) / 1000,
      });
      await rl.consume('k', 5, t0);
      expect((await rl.peek('k', 5, t0)).remaining).toBe(4);
      expect((await rl.peek('k', 5, t0)).remaining).toBe(4);
    });

    test('peek on an exhausted bucket reports it refused', async () => {
      await rl.consume('k', 1, t0);
      expect(await rl.peek('k', 1, t0 + 5)).toEqual({
        allowed: false,
        limit: 1,
        remaining: 0,
        resetAt: (t0 + minute) / 1000,
      });
    });

    test('keeps buckets apart', async () => {
      await rl.consume('a', 1, t0);
      expect((await rl.consume('a', 1, t0)).allowed).toBe(false);
      expect((await rl.consume('b', 1, t0)).allowed).toBe(true);
    });
  });
}
