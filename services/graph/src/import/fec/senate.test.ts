import { findState } from '@civicgraph/kit';
import { describe, expect, it } from 'vitest';
import { senateContest } from './senate.js';

const ne = findState('ne')!;
const oh = findState('oh')!;
const co = findState('co')!;

describe('senateContest: which seat an FEC Senate row runs for', () => {
  it('the class elected that cycle, where the state has a seat of it', () => {
    expect(senateContest(co, 2026, {})).toEqual({ senateClass: 2, type: 'general' });
  });

  it("a known special where the state has no seat of the cycle's class, else refused", () => {
    expect(senateContest(oh, 2026, { oh: 3 })).toEqual({ senateClass: 3, type: 'special' });
    expect(senateContest(oh, 2026, {})).toEqual({ reason: expect.stringMatching(/^Ohio has no class 2 Senate seat/) });
  });

  it('two seats the same day: a sitting senator by their own seat, anyone else refused', () => {
    const specials = { ne: 2 };
    expect(senateContest(ne, 2024, specials, 2)).toEqual({ senateClass: 2, type: 'special' });
    expect(senateContest(ne, 2024, specials, 1)).toEqual({ senateClass: 1, type: 'general' });
    expect(senateContest(ne, 2024, specials)).toEqual({
      reason: expect.stringMatching(
        /^Nebraska elects two Senate seats in 2024, class 1 and class 2 in a special election/,
      ),
    });
  });
});
