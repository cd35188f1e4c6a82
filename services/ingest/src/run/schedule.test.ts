import { describe, expect, it } from 'vitest';
import { SOURCES } from '../registry.js';
import { freshState } from '../state/ingest-store.js';
import { READER_REVISIONS } from './reader-revisions.js';
import { backoffMs, isDue } from './schedule.js';

describe('backoffMs', () => {
  it('waits 1 minute after the first failure, doubling each time, never more than 6 hours', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 50].map((n) => backoffMs(n) / 60_000)).toEqual([1, 2, 4, 8, 16, 256, 360, 360]);
  });
});

describe('isDue', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const source = SOURCES.find((s) => s.import.kind === 'boundaries')!;
  it('is due when never fetched, or once its next attempt has come', () => {
    expect(isDue(source, freshState('x'), now)).toBe(true);
    expect(isDue(source, { ...freshState('x'), nextAttemptAt: '2026-11-25T12:00:00.000Z' }, now)).toBe(true);
    expect(isDue(source, { ...freshState('x'), nextAttemptAt: '2026-11-25T12:00:00.001Z' }, now)).toBe(false);
  });

  it('is due at once when imported under an older reader, unless it is failing', () => {
    const imported = {
      ...freshState('x'),
      status: 'ok' as const,
      hash: 'abc',
      nextAttemptAt: '2026-12-25T12:00:00.000Z',
    };
    const current = READER_REVISIONS.boundaries;
    expect(isDue(source, { ...imported, readerRevision: current }, now)).toBe(false);
    expect(isDue(source, { ...imported, readerRevision: current - 1 }, now)).toBe(true);
    expect(isDue(source, { ...imported, status: 'failed', readerRevision: current - 1 }, now)).toBe(false);
  });
});
