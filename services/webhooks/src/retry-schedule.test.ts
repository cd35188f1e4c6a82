import { describe, expect, it } from 'vitest';
import { JITTER, MAX_ATTEMPTS, nominalSchedule, retryDelay, RETRY_DELAYS_MS } from './retry-schedule.js';

describe('retry schedule', () => {
  it('spreads ten attempts over about three days, backing off every time', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    const last = nominalSchedule().at(-1)!;
    expect(last / 86_400_000).toBeGreaterThan(2.9);
    expect(last / 86_400_000).toBeLessThan(3.1);
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++)
      expect(RETRY_DELAYS_MS[i]).toBeGreaterThan(RETRY_DELAYS_MS[i - 1]!);
  });

  it('jitters each delay within ±20 %, and stops after the last attempt', () => {
    expect(retryDelay(1, () => 0)).toBe(5_000 * (1 - JITTER));
    expect(retryDelay(1, () => 0.999999)).toBeCloseTo(5_000 * (1 + JITTER), -1);
    expect(retryDelay(1, () => 0.5)).toBe(5_000);
    expect(retryDelay(MAX_ATTEMPTS - 1)).toBeGreaterThan(0);
    expect(retryDelay(MAX_ATTEMPTS)).toBeUndefined();
  });
});
