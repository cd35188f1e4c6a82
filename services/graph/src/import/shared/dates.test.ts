import { describe, expect, it } from 'vitest';
import { generalElectionDay, parseDate } from './dates.js';

describe('parseDate', () => {
  it.each([
    ['2024-11-05', '2024-11-05'],
    ['2024-11-5', '2024-11-05'],
    ['11/5/24', '2024-11-05'],
    ['11/05/2024', '2024-11-05'],
    [' 12/31/2025 ', '2025-12-31'],
    ['2/29/24', '2024-02-29'],
    ['1/1/60', '1960-01-01'],
  ])('%s → %s', (text, iso) => expect(parseDate(text)).toBe(iso));

  it.each(['2025-02-29', '13/1/2024', '11/31/24', '2024/11/05', '11-05-2024', 'Nov 5 2024', '', '11/5/124'])(
    '%s is not a date',
    (text) => {
      expect(parseDate(text)).toBeUndefined();
    },
  );
});

describe('generalElectionDay', () => {
  it.each([
    [2024, '2024-11-05'],
    [2026, '2026-11-03'],
    [2028, '2028-11-07'],
    [2022, '2022-11-08'],
    [2032, '2032-11-02'],
  ])('%i → %s (the Tuesday after the first Monday of November)', (year, day) =>
    expect(generalElectionDay(year)).toBe(day),
  );
});
