import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EntitlementRequiredError, PlanRequiredError, UnauthenticatedError } from './errors.js';
import type { DeploymentEnvironment } from './config.js';

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
  /** The most bytes one answer may hold, in any layer (REST bodies, GraphQL boundaries). */
  maxResponseBytes: number;
}

const QUERY_BUDGETS: Readonly<Record<'explore' | 'build' | 'enterprise', QueryBudget>> = {
  explore: { maxDepth: 8, maxCost: 1_000, maxResponseBytes: 2 * 2 ** 20 },
  build: { maxDepth: 12, maxCost: 10_000, maxResponseBytes: 16 * 2 ** 20 },
  enterprise: { maxDepth: 16, maxCost: 50_000, maxResponseBytes: 64 * 2 ** 20 },
};

/** The principal's query budget; an unknown plan gets Explore's. */
export function queryBudget(p: Principal): QueryBudget {
  if (p.plan === Plan.PLAN_ENTERPRISE) return QUERY_BUDGETS.enterprise;
  if (p.plan === Plan.PLAN_BUILD) return QUERY_BUDGETS.build;
  return QUERY_BUDGETS.explore;
}

/**
 * What one Cypher query may do, per plan, checked while it runs: the rows it may examine
 * (nodes and relationships read, rows produced by each clause), the rows it may return, its
 * time, and the heap it may grow the graph service by (a row examined holds ~600 bytes while
 * the query runs, so the rows alone would let an Enterprise query take 3 GB). Explore has
 * no Cypher layer, so no budget.
 */
export interface CypherBudget {
  rowsExamined: number;
  rowsReturned: number;
  timeMs: number;
  /** Heap the graph service may grow by while the query runs (measured, not estimated). */
  memoryMb: number;
}

const CYPHER_BUDGETS: Readonly<Record<'build' | 'enterprise', CypherBudget>> = {
  build: { rowsExamined: 1_000_000, rowsReturned: 10_000, timeMs: 10_000, memoryMb: 256 },
  enterprise: { rowsExamined: 5_000_000, rowsReturned: 100_000, timeMs: 30_000, memoryMb: 1_024 },
};

/** The principal's Cypher budget (assertLayer refuses Explore before a query runs; it gets Build's if asked). */
export function cypherBudget(p: Principal): CypherBudget {
  return p.plan === Plan.PLAN_ENTERPRISE ? CYPHER_BUDGETS.enterprise : CYPHER_BUDGETS.build;
}

/** The query layers of the interface spec, as named in `/v1/meta/layers` and in errors. */
export type Layer = 'rest' | 'graphql' | 'cypher' | 'agent' | 'webhooks' | 'bulk_export';

export const LAYER_NAMES: readonly Layer[] = ['rest', 'graphql', 'cypher', 'agent', 'webhooks', 'bulk_export'];

/** REST and GraphQL are on every plan; the other layers on Build and Enterprise (spec, Plans). */
export function layerAllowed(p: Principal, layer: Layer): boolean {
  if (layer === 'rest' || layer === 'graphql') return true;
  return p.plan === Plan.PLAN_BUILD || p.plan === Plan.PLAN_ENTERPRISE;
}

/** Refuses a layer outside the principal's plan: `plan_required`, naming the layer. */
export function assertLayer(p: Principal, layer: Layer): void {
  if (!layerAllowed(p, layer)) {
    throw new PlanRequiredError(
      `The ${layer} layer is available on the build and enterprise plans; this key is on explore.`,
      { field: layer },
    );
  }
}

/** How often the principal may take a bulk export: Build monthly, Enterprise on demand, Explore never. */
export function bulkExportCadence(p: Principal): 'monthly' | 'on_demand' | null {
  if (p.plan === Plan.PLAN_ENTERPRISE) return 'on_demand';
  return p.plan === Plan.PLAN_BUILD ? 'monthly' : null;
}

/**
 * The environment a principal's key reads: `cg_test_` keys the sandbox dataset, `cg_live_`
 * keys the live one. A deployment serves one environment (its own stores and event
 * subjects), so the two datasets never meet.
 */
export function environmentOf(p: Principal): DeploymentEnvironment {
  return p.environment === Environment.ENVIRONMENT_LIVE ? 'live' : 'test';
}

/** The key prefix of an environment's keys. */
export function keyPrefixOf(env: DeploymentEnvironment): string {
  return `cg_${env}_`;
}

/**
 * Refuses a key of the other environment (before its secret is even looked up, by its
 * prefix, and again for the resolved principal in every service that holds data).
 */
export function assertEnvironment(
  served: DeploymentEnvironment,
  key: { prefix?: string; principal?: Principal },
): void {
  const other = served === 'live' ? 'test' : 'live';
  // By prefix, only a key that names the other environment is refused here; a malformed
  // one goes on to the one indistinct authentication failure.
  const env =
    key.principal !== undefined
      ? environmentOf(key.principal)
      : key.prefix?.startsWith(keyPrefixOf(other))
        ? other
        : served;
  if (env === served) return;
  throw new UnauthenticatedError(
    `This deployment serves the ${served} environment and accepts ${keyPrefixOf(served)} keys only; ${keyPrefixOf(other)} keys read the ${other} dataset at its own deployment.`,
    { field: 'Authorization' },
  );
}

/** Point-in-district resolution and boundary geometry need `geography`. */
export function assertGeography(p: Principal): void {
  if (!p.entitlements?.geography) {
    throw new EntitlementRequiredError(
      'This key lacks the geography entitlement, which point-in-district lookups require.',
      {
        field: 'geography',
      },
    );
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
  return {
    states: states.length === 0 ? undefined : [...states, ''],
    tiers: tiers.length === 0 ? undefined : [...tiers, ''],
  };
}

/**
 * The fields that exist only for keys with `contact` (camelCase, as stored and as GraphQL
 * names them), by the resource that carries them: a candidacy's campaign channels, and an
 * officeholder's offices (addresses, voice, fax), emails and links. An officeholder's
 * channels are stored on the person (see the graph's PersonData), so a person's node in an
 * event carries them under the same names and the same rule removes them.
 */
export const CONTACT_FIELDS = {
  candidacy: ['campaignEmails', 'campaignPhones', 'campaignTeam'],
  officeholder: ['contactOffices', 'contactEmails', 'contactLinks'],
} as const;

/** Every contact field name, whatever resource carries it. */
export const ALL_CONTACT_FIELDS: readonly string[] = Object.values(CONTACT_FIELDS).flat();

/** The contact fields (campaign and officeholder channels) exist only for keys with `contact`. */
export function contactVisible(p: Principal): boolean {
  return p.entitlements?.contact === true;
}

const CONTACT: ReadonlySet<string> = new Set(ALL_CONTACT_FIELDS);

/** Whether a field (camelCase, as stored) of a candidacy, officeholder or person exists for the key: contact fields only with `contact`. */
export function fieldVisible(p: Principal, field: string): boolean {
  return !CONTACT.has(field) || contactVisible(p);
}

/** A query naming a contact field without `contact` is refused, naming the field. */
export function assertContact(p: Principal, field: string): void {
  if (!contactVisible(p)) {
    throw new EntitlementRequiredError(`The field ${field} requires the contact entitlement, which this key lacks.`, {
      field,
    });
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

/**
 * A node as the key may see it (an event's object, an exported row): without the fields
 * the key may not see, wherever the node keeps them — a candidacy in `data.fields`, a
 * person (and an officeholder, whose object carries its person's channels) in `data`
 * itself. Absent, not null or redacted. The webhook payloads and the bulk exports both
 * shape nodes here, so a row of an export equals the object of the event that made it.
 */
export function visibleNode<T extends { data?: unknown }>(p: Principal, node: T): T {
  const data = node.data as ({ fields?: Record<string, unknown> } & Record<string, unknown>) | undefined | null;
  if (data === undefined || data === null || contactVisible(p)) return node;
  const visible = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([k]) => !CONTACT.has(k)));
  return {
    ...node,
    data: data.fields === undefined ? visible(data) : { ...visible(data), fields: visible(data.fields) },
  };
}
