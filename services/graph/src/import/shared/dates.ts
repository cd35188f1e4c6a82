import { isIsoDate } from '@civicgraph/kit';

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/;

/**
 * A source's date as `YYYY-MM-DD`, or undefined when it is not a real calendar date.
 * Accepts ISO (`2024-11-05`, also unpadded `2024-11-5`) and US month/day/year with a
 * 4- or 2-digit year (`11/05/2024`, `11/5/24`, as MEDSL's Colorado file writes them).
 * A 2-digit year is read in the 100 years ending `pivotYear + 50` (default: 1950–2049),
 * which suits election and filing dates; birthdays should come with 4 digits.
 */
export function parseDate(text: string, pivotYear = 2000): string | undefined {
  const s = text.trim();
  const iso = ISO.exec(s);
  if (iso !== null) return calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = US.exec(s);
  if (us === null) return undefined;
  const year = us[3]!.length === 4 ? Number(us[3]) : fullYear(Number(us[3]), pivotYear);
  return calendarDate(year, Number(us[1]), Number(us[2]));
}

function fullYear(yy: number, pivotYear: number): number {
  const low = pivotYear - 50;
  const century = Math.floor(low / 100) * 100;
  const year = century + yy;
  return year < low ? year + 100 : year;
}

function calendarDate(year: number, month: number, day: number): string | undefined {
  const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isIsoDate(text) ? text : undefined;
}

/**
 * Election day of a federal general election (2 U.S.C. §7): the Tuesday after the first
 * Monday of November, i.e. the first Tuesday that is not November 1st.
 */
export function generalElectionDay(year: number): string {
  const nov1 = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  const firstMonday = 1 + ((8 - nov1) % 7);
  return `${year}-11-${String(firstMonday + 1).padStart(2, '0')}`;
}
