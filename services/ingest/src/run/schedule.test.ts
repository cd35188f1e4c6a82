import { describe, expect, it } from 'vitest';
import { freshState } from '../state/ingest-store.js';
import { backoffMs, isDue } from './schedule.js';

describe('backoffMs', () => {
  it('waits 1 minute after the first failure, doubling each time, never more than 6 hours', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 50].map((n) => backoffMs(n) / 60_000)).toEqual([1, 2, 4, 8, 16, 256, 360, 360]);
  });
});

describe('isDue', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('is due when never fetched, or once its next attempt has come', () => {
    expect(isDue(freshState('x'), now)).toBe(true);
    expect(isDue({ ...freshState('x'), nextAttemptAt: '2026-11-25T12:00:00.000Z' }, now)).toBe(true);
    expect(isDue({ ...freshState('x'), nextAttemptAt: '2026-11-25T12:00:00.001Z' }, now)).toBe(false);
  });
});
