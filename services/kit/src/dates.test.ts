import { afterEach, describe, expect, it, vi } from 'vitest';
import { isIsoDate, todayUtc } from './dates.js';

describe('todayUtc', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('formats a given instant as its UTC calendar date', () => {
    expect(todayUtc(new Date('2026-11-24T23:59:59.999-05:00'))).toBe('2026-11-25');
  });

  it('follows the clock across midnight and back, although it keeps the day it formatted', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-24T23:59:59.999Z'));
    expect(todayUtc()).toBe('2026-11-24');
    vi.setSystemTime(new Date('2026-11-25T00:00:00.000Z'));
    expect(todayUtc()).toBe('2026-11-25');
    vi.setSystemTime(new Date('2024-02-29T12:00:00Z'));
    expect(todayUtc()).toBe('2024-02-29');
  });
});

describe('isIsoDate', () => {
  it('accepts real calendar dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-2-01')).toBe(false);
  });

  it('answers a date asked again as it did the first time, and still refuses others after it', () => {
    for (let i = 0; i < 2; i++) {
      expect(isIsoDate('2026-11-27')).toBe(true);
      expect(isIsoDate('2026-11-31')).toBe(false);
      expect(isIsoDate('2026-11-27 ')).toBe(false);
      expect(isIsoDate('0050-01-01')).toBe(false);
    }
  });
});
