const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The last date found real: nearly every lookup asks about the same day (today). */
let lastIsoDate = '';

/** True for a real calendar date written `YYYY-MM-DD` (so `2025-02-30` is false). */
export function isIsoDate(value: string): boolean {
  if (value === lastIsoDate) return true;
  const m = ISO_DATE.exec(value);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.toISOString().slice(0, 10) !== value) return false;
  lastIsoDate = value;
  return true;
}

const DAY_MS = 86_400_000;
/** The last day formatted, and the UTC day it holds for (asked on every request). */
let today = { start: 0, value: '' };

/** Today's date in UTC, `YYYY-MM-DD`: the default date of every dated lookup. */
export function todayUtc(now?: Date): string {
  if (now !== undefined) return now.toISOString().slice(0, 10);
  const ms = Date.now();
  if (ms < today.start || ms >= today.start + DAY_MS) {
    const start = ms - (ms % DAY_MS);
    today = { start, value: new Date(start).toISOString().slice(0, 10) };
  }
  return today.value;
}
