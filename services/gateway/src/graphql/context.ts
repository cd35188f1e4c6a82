import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Contest } from '@civicgraph/protos/civic/graph/v1/graph';
import { queryBudget, type ApiVersion } from '@civicgraph/kit';
import { slugsIn } from '../cache/response-cache.js';
import type { Spend } from './geometry-cost.js';

/** What every resolver is given: the caller, as the edge authenticated it, and per-request memos. */
export interface GraphQLContext extends Record<PropertyKey, unknown> {
  principal: Principal;
  version: ApiVersion;
  /** Contests fetched during this request, by slug and min confidence: one upstream call each. */
  contests: Map<string, Promise<Contest | null>>;
  /** Every slug the upstream answers behind this result named: what a cached result is dropped by. */
  touched: Set<string>;
  /** Cost and bytes spent as fields resolve (outlines), against the key's ceilings. */
  spend: Spend;
}

/** A fresh context for one operation whose analysis cost `cost` before it ran. */
export function graphqlContext(principal: Principal, version: ApiVersion, cost = 0): GraphQLContext {
  const budget = queryBudget(principal);
  return {
    principal,
    version,
    contests: new Map(),
    touched: new Set(),
    spend: { cost, maxCost: budget.maxCost, bytes: 0, maxBytes: budget.maxResponseBytes, outlines: Promise.resolve() },
  };
}

/** Notes the slugs an upstream answer (or a list of slugs) names: the result depends on them. */
export function touch(ctx: GraphQLContext, answer: unknown): void {
  slugsIn(answer, ctx.touched);
}
