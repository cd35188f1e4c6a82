/**
 * The one factor every test deadline is stretched by: CIVIC_TEST_TIME_SCALE (default 1).
 * A loaded machine sets it (say 3) and the suite runs slower instead of failing; a deadline
 * written into a test (a poll's timeout, a test's own timeout, a gRPC client's deadline) goes
 * through {@link scaled} so it stretches with vitest's defaults (vitest.config.ts).
 */
export const TIME_SCALE = timeScale(process.env['CIVIC_TEST_TIME_SCALE']);

/** `ms` stretched by CIVIC_TEST_TIME_SCALE, for a deadline a test writes itself. */
export function scaled(ms: number): number {
  return Math.ceil(ms * TIME_SCALE);
}

/** The factor from its variable: a positive number, else a clear error naming the variable. */
export function timeScale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const factor = Number(raw);
  if (!Number.isFinite(factor) || factor <= 0) {
    throw new RangeError(
      `CIVIC_TEST_TIME_SCALE must be a positive number (a factor such as 3), got ${JSON.stringify(raw)}`,
    );
  }
  return factor;
}
