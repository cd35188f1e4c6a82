/**
 * The rule for tests that need a real server (NATS, ArangoDB, …), from DESIGN "Tests":
 * use it when it answers; otherwise skip loudly, unless CIVIC_REQUIRE_SERVICES=1 (set by
 * CI), where a missing server is a failure. No vitest import here, so the rule can be
 * re-exported from the kit; the vitest side is testing/describe-with-service.ts.
 */

/** Whether a test dependency answered, and what to do about it when it did not. */
export interface ServiceAvailability {
  /** Human name, e.g. `NATS at nats://127.0.0.1:4222`. */
  name: string;
  available: boolean;
  /** True when CIVIC_REQUIRE_SERVICES=1: an unavailable service must fail the run. */
  required: boolean;
  /** Why the probe failed; absent when available. */
  reason?: string;
}

/** Options for {@link serviceAvailability}. */
export interface AvailabilityOptions {
  /** Give up on the probe after this long, in ms. Default 3000. */
  timeoutMs?: number;
  /** Where CIVIC_REQUIRE_SERVICES is read from. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** True when the environment demands every test dependency (CI). */
export function servicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CIVIC_REQUIRE_SERVICES === '1';
}

/** Runs `probe` (resolves when the service answers) and reports the outcome; never throws. */
export async function serviceAvailability(
  name: string,
  probe: () => Promise<unknown>,
  options: AvailabilityOptions = {},
): Promise<ServiceAvailability> {
  const required = servicesRequired(options.env);
  try {
    await withTimeout(probe(), options.timeoutMs ?? 3000);
    return { name, available: true, required };
  } catch (err) {
    return { name, available: false, required, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** The loud line printed when a suite is skipped, or the failure when it may not be. */
export function unavailableMessage(a: ServiceAvailability): string {
  const why = a.reason ?? 'unknown reason';
  return a.required
    ? `${a.name} is unavailable (${why}) and CIVIC_REQUIRE_SERVICES=1 requires it.`
    : `SKIPPING tests that need ${a.name}: ${why}. Start it, or set CIVIC_REQUIRE_SERVICES=1 to make this a failure.`;
}

/** `work`, or a rejection when it has not settled within `ms`. */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
