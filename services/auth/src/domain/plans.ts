import { InvalidParameterError, isApiVersion, LATEST_VERSION } from '@civicgraph/kit';
import { Plan, type Entitlements } from '@civicgraph/protos/civic/auth/v1/auth';
import { normaliseStates, normaliseTiers } from './jurisdictions.js';

// The version list is shared with the gateway (Civic-Version), so it lives in kit; it is
// re-exported here because a key's pinned version is part of its plan terms.
export { API_VERSIONS, LATEST_VERSION } from '@civicgraph/kit';

/** Fixed per-minute limits of the self-serve plans; Enterprise negotiates one per key. */
export const PLAN_RATE_LIMITS: Readonly<Partial<Record<Plan, number>>> = {
  [Plan.PLAN_EXPLORE]: 60,
  [Plan.PLAN_BUILD]: 600,
};

/** Bounds of a negotiated Enterprise limit, requests per minute. */
export const ENTERPRISE_RATE_LIMIT = { min: 1, max: 1_000_000 } as const;

const PLANS: ReadonlySet<Plan> = new Set([Plan.PLAN_EXPLORE, Plan.PLAN_BUILD, Plan.PLAN_ENTERPRISE]);

/** Throws unless `plan` is one of explore, build, enterprise. */
export function assertPlan(plan: Plan): void {
  if (!PLANS.has(plan)) throw new InvalidParameterError('plan', 'plan must be explore, build or enterprise.');
}

/**
 * The key's requests per minute: the plan's fixed limit, or for Enterprise the requested
 * one. Enterprise must name a limit in range; the other plans must not name one at all.
 */
export function resolveRateLimit(plan: Plan, requested: number | undefined): number {
  const fixed = PLAN_RATE_LIMITS[plan];
  if (fixed !== undefined) {
    if (requested !== undefined) throw rateLimitError('is set per key only on the enterprise plan; omit it.');
    return fixed;
  }
  if (requested === undefined) throw rateLimitError('is required on the enterprise plan (the negotiated limit).');
  if (!Number.isInteger(requested) || requested < ENTERPRISE_RATE_LIMIT.min || requested > ENTERPRISE_RATE_LIMIT.max) {
    throw rateLimitError(`must be an integer from ${ENTERPRISE_RATE_LIMIT.min} to ${ENTERPRISE_RATE_LIMIT.max}.`);
  }
  return requested;
}

function rateLimitError(detail: string): InvalidParameterError {
  return new InvalidParameterError('rate_limit_per_minute', `rate_limit_per_minute ${detail}`);
}

/**
 * Entitlements for a new key on `plan`: defaults for an absent message (contact off,
 * geography on, every state and tier), states and tiers normalised. Contact is an add-on of
 * Build and Enterprise only.
 */
export function resolveEntitlements(plan: Plan, requested: Entitlements | undefined): Entitlements {
  if (requested === undefined) return { contact: false, geography: true, states: [], tiers: [] };
  if (requested.contact && plan === Plan.PLAN_EXPLORE) {
    throw new InvalidParameterError(
      'entitlements',
      'The contact entitlement is available on the build and enterprise plans only.',
    );
  }
  return {
    contact: requested.contact,
    geography: requested.geography,
    states: normaliseStates(requested.states),
    tiers: normaliseTiers(requested.tiers),
  };
}

/** The version a key pins: the requested one if known, the latest when none is given. */
export function resolvePinnedVersion(requested: string): string {
  if (requested === '') return LATEST_VERSION;
  if (!isApiVersion(requested)) {
    throw new InvalidParameterError('pinned_version', `${JSON.stringify(requested)} is not a known API version.`);
  }
  return requested;
}
