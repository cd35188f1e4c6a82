import { Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EntitlementRequiredError } from './errors.js';

/**
 * The one entitlement policy. Every layer (REST, GraphQL, later Cypher, agent, webhooks,
 * exports) and every service asks these functions; none re-implements a rule.
 */

/** Entitlement names as they appear in `Civic-Entitlements` and in errors. */
export type EntitlementName = 'contact' | 'geography' | 'jurisdictions';

/** Every entitlement, in the stable order `Civic-Entitlements` lists them. */
export const ENTITLEMENT_NAMES: readonly EntitlementName[] = ['contact', 'geography', 'jurisdictions'];

/** Entitlements enabled for a principal, in a stable order, for `Civic-Entitlements`. */
export function enabledEntitlements(p: Principal): EntitlementName[] {
  return ENTITLEMENT_NAMES.filter((name) => hasEntitlement(p, name));
}

/**
 * Whether the principal holds an entitlement. `jurisdictions` is always held (its scope
 * narrows what it covers); the others are the key's switches.
 */
export function hasEntitlement(p: Principal, name: EntitlementName): boolean {
  if (name === 'jurisdictions') return true;
  return p.entitlements?.[name] === true;
}

/**
 * What a query language layer (GraphQL today, Cypher later) may cost a principal before it
 * runs: the deepest selection and the highest cost (list fields multiply their selection by
 * their expected size), per plan.
 */
export interface QueryBudget {
  maxDepth: number;
  maxCost: number;
}

const QUERY_BUDGETS: Readonly<Record<'explore' | 'build' | 'enterprise', QueryBudget>> = {
  explore: { maxDepth: 8, maxCost: 1_000 },
  build: { maxDepth: 12, maxCost: 10_000 },
  enterprise: { maxDepth: 16, maxCost: 50_000 },
};

/** The principal's query budget; an unknown plan gets Explore's. */
export function queryBudget(p: Principal): QueryBudget {
  if (p.plan === Plan.PLAN_ENTERPRISE) return QUERY_BUDGETS.enterprise;
  if (p.plan === Plan.PLAN_BUILD) return QUERY_BUDGETS.build;
  return QUERY_BUDGETS.explore;
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

/** Whether a node of jurisdiction `tier` ('' for none) exists for the principal. */
export function tierVisible(p: Principal, tier: string): boolean {
  const tiers = p.entitlements?.tiers ?? [];
  return tier === '' || tiers.length === 0 || tiers.includes(tier);
}

/** Whether a node with this scope exists for the principal: both its state and its tier are in scope. */
export function nodeVisible(p: Principal, node: { state: string; tier: string }): boolean {
  return stateVisible(p, node.state) && tierVisible(p, node.tier);
}

/**
 * The principal's scope as store filters, for queries that must apply it inside the store
 * (so a page is never short of what it should hold): `undefined` means unrestricted;
 * a list includes '' because national / untiered nodes are visible to every key.
 */
export function storeScope(p: Principal): { states: string[] | undefined; tiers: string[] | undefined } {
  const states = p.entitlements?.states ?? [];
  const tiers = p.entitlements?.tiers ?? [];
  return { states: states.length === 0 ? undefined : [...states, ''], tiers: tiers.length === 0 ? undefined : [...tiers, ''] };
}

/** The contact fields (campaign emails, phones, team) exist only for keys with `contact`. */
export function contactVisible(p: Principal): boolean {
  return p.entitlements?.contact === true;
}

/** A query naming a contact field without `contact` is refused, naming the field. */
export function assertContact(p: Principal, field: string): void {
  if (!contactVisible(p)) {
    throw new EntitlementRequiredError(`The field ${field} requires the contact entitlement, which this key lacks.`, { field });
  }
}

/**
 * Everything the policy reads of a principal, as one string: two principals with the same
 * fingerprint see the same nodes and fields in every layer, so a cached answer may be
 * shared between them and never with anyone else.
 */
export function policyFingerprint(p: Principal): string {
  // Asked on every cached request; the gateway's principal cache hands out one object per key.
  let fingerprint = fingerprints.get(p);
  if (fingerprint === undefined) {
    const e = p.entitlements;
    fingerprint = [
      p.environment,
      p.plan,
      e?.contact === true ? 'c' : '',
      e?.geography === true ? 'g' : '',
      [...(e?.states ?? [])].sort().join(','),
      [...(e?.tiers ?? [])].sort().join(','),
    ].join('|');
    fingerprints.set(p, fingerprint);
  }
  return fingerprint;
}

const fingerprints = new WeakMap<Principal, string>();
