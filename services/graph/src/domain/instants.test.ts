import { describe, expect, test } from 'vitest';
import { parseInstant } from './instants.js';

describe('parseInstant', () => {
  test.each(['2026-06-01T00:00:00Z', '2026-06-01T00:00:00.123Z', '2026-06-01T02:00:00+02:00'])('reads %s', (s) => {
    expect(parseInstant(s)).toBe(Date.UTC(2026, 5, 1, 0, 0, 0, s.includes('.123') ? 123 : 0));
  });

  test.each(['11/5/24', '2026-06-01', '2026-02-30T00:00:00Z', '2026-06-01T00:00:00', '', 42])('refuses %s', (s) => {
    expect(parseInstant(s)).toBeNaN();
  });
});
