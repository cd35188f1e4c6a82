/**
 * When a failed delivery is tried again: the delay after attempt n (1-based) before attempt
 * n + 1, with ±20 % jitter so endpoints that fail together do not retry together. Ten
 * attempts over about three days (the schedule the README publishes):
 *
 *   attempt  1: at once          6: +1 h
 *            2: +5 s             7: +3 h
 *            3: +1 min           8: +6 h
 *            4: +10 min          9: +24 h
 *            5: +30 min         10: +36 h   (then the delivery is marked failed)
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, 60_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 86_400_000, 129_600_000,
];

/** Most attempts a delivery gets. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Share of a delay the jitter may add or take away. */
export const JITTER = 0.2;

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based), or undefined when it was
 * the last. `random` in [0, 1) picks the jitter (injectable for tests).
 */
export function retryDelay(attempt: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** The whole schedule without jitter, in ms from the first attempt: for the README and tests. */
export function nominalSchedule(): number[] {
  const at = [0];
  for (const d of RETRY_DELAYS_MS) at.push(at.at(-1)! + d);
  return at;
}
