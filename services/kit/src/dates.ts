const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (so `2025-02-30` is false). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** Today's date in UTC, `YYYY-MM-DD`: the default date of every dated lookup. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
