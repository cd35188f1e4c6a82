import { describe, expect, it } from 'vitest';
import { generalElectionDay, junePrimaryDay, surroundingGenerals } from './calendar.js';

describe('election calendar', () => {
  it('finds the Tuesday after the first Monday of November', () => {
    expect(generalElectionDay(2024)).toBe('2024-11-05');
    expect(generalElectionDay(2026)).toBe('2026-11-03');
    expect(generalElectionDay(2028)).toBe('2028-11-07');
    expect(generalElectionDay(2022)).toBe('2022-11-08');
    // November 1st a Tuesday: election day is the 8th, not the 1st.
    expect(generalElectionDay(2016)).toBe('2016-11-08');
  });

  it('places today between the last and the next general election', () => {
    expect(surroundingGenerals('2026-11-22')).toEqual({ past: '2026-11-03', next: '2028-11-07' });
    expect(surroundingGenerals('2026-11-03')).toEqual({ past: '2024-11-05', next: '2026-11-03' });
    expect(surroundingGenerals('2027-03-01')).toEqual({ past: '2026-11-03', next: '2028-11-07' });
  });

  it('puts primaries on the first Tuesday of June', () => {
    expect(junePrimaryDay(2028)).toBe('2028-06-06');
    expect(junePrimaryDay(2026)).toBe('2026-06-02');
  });
});
