import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Contest } from '@civicgraph/protos/civic/graph/v1/graph';
import type { ApiVersion } from '@civicgraph/kit';

/** What every resolver is given: the caller, as the edge authenticated it, and per-request memos. */
export interface GraphQLContext extends Record<PropertyKey, unknown> {
  principal: Principal;
  version: ApiVersion;
  /** Contests fetched during this request, by slug and min confidence: one upstream call each. */
  contests: Map<string, Promise<Contest | null>>;
  /** Every slug the upstream answers behind this result named: what a cached result is dropped by. */
  touched: Set<string>;
}

/** A fresh context for one operation. */
export function graphqlContext(principal: Principal, version: ApiVersion): GraphQLContext {
  return { principal, version, contests: new Map(), touched: new Set() };
}

/** Notes slugs the result depends on. */
export function touch(ctx: GraphQLContext, slugs: Iterable<string>): void {
  for (const slug of slugs) if (slug !== '') ctx.touched.add(slug);
}
