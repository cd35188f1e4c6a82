import { generalElectionDay } from '../import/shared/dates.js';

/**
 * The demo's calendar around a day: federal general elections fall on the Tuesday after
 * the first Monday of November of even years (2 U.S.C. § 7).
 */
export { generalElectionDay };

/** The last even-year general election strictly before `today`, and the next one on or after it. */
export function surroundingGenerals(today: string): { past: string; next: string } {
  const year = Number(today.slice(0, 4));
  let pastYear = year % 2 === 0 ? year : year - 1;
  if (generalElectionDay(pastYear) >= today) pastYear -= 2;
  let nextYear = year % 2 === 0 ? year : year + 1;
  if (generalElectionDay(nextYear) < today) nextYear += 2;
  return { past: generalElectionDay(pastYear), next: generalElectionDay(nextYear) };
}

/** A primary about five months before a general: the first Tuesday of June of its year. */
export function junePrimaryDay(year: number): string {
  const jun1 = new Date(Date.UTC(year, 5, 1)).getUTCDay();
  const firstTuesday = 1 + ((9 - jun1) % 7);
  return `${year}-06-${String(firstTuesday).padStart(2, '0')}`;
}
