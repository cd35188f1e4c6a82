import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EntitlementRequiredError } from './errors.js';

/**
 * The one entitlement policy. Every layer (REST, GraphQL, later Cypher, agent, webhooks,
 * exports) and every service asks these functions; none re-implements a rule.
 */

/** Entitlement names as they appear in `Civic-Entitlements` and in errors. */
export type EntitlementName = 'contact' | 'geography' | 'jurisdictions';

/** Entitlements enabled for a principal, in a stable order, for `Civic-Entitlements`. */
export function enabledEntitlements(p: Principal): EntitlementName[] {
  const out: EntitlementName[] = [];
  if (p.entitlements?.contact) out.push('contact');
  if (p.entitlements?.geography) out.push('geography');
  // Jurisdictions is always granted; its scope (states, tiers) narrows what it covers.
  out.push('jurisdictions');
  return out;
}

/** Point-in-district resolution and boundary geometry need `geography`. */
export function assertGeography(p: Principal): void {
  if (!p.entitlements?.geography) {
    throw new EntitlementRequiredError('This key lacks the geography entitlement, which point-in-district lookups require.', {
      field: 'geography',
    });
  }
}

/**
 * Whether a node located in `state` (lowercase USPS, '' for national nodes) exists for the
 * principal. Out-of-scope nodes do not exist for a key: they are absent from lists and 404
 * on direct lookup.
 */
export function stateVisible(p: Principal, state: string): boolean {
  const states = p.entitlements?.states ?? [];
  return state === '' || states.length === 0 || states.includes(state);
}

/** Keeps the items the principal may see. */
export function visibleByState<T extends { state: string }>(p: Principal, items: readonly T[]): T[] {
  return items.filter((i) => stateVisible(p, i.state));
}
