import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './rate-limiter.js';

const minute = 60_000;
const t0 = 1_800_000_000_000; // aligned to a minute boundary

describe('MemoryRateLimiter', () => {
  it('allows exactly `limit` requests in a minute and refuses the next', async () => {
    const rl = new MemoryRateLimiter();
    for (let i = 0; i < 60; i++) expect((await rl.consume('k', 60, t0 + i)).allowed).toBe(true);
    const d = await rl.consume('k', 60, t0 + 100);
    expect(d).toEqual({ allowed: false, limit: 60, remaining: 0, resetAt: (t0 + minute) / 1000 });
  });

  it('starts a fresh window at the next minute', async () => {
    const rl = new MemoryRateLimiter();
    for (let i = 0; i < 3; i++) await rl.consume('k', 3, t0);
    expect((await rl.consume('k', 3, t0 + minute)).remaining).toBe(2);
  });

  it('peek reports the bucket without counting', async () => {
    const rl = new MemoryRateLimiter();
    await rl.consume('k', 5, t0);
    expect((await rl.peek('k', 5, t0)).remaining).toBe(4);
    expect((await rl.peek('k', 5, t0)).remaining).toBe(4);
  });

  it('keeps buckets apart', async () => {
    const rl = new MemoryRateLimiter();
    await rl.consume('a', 1, t0);
    expect((await rl.consume('a', 1, t0)).allowed).toBe(false);
    expect((await rl.consume('b', 1, t0)).allowed).toBe(true);
  });
});
