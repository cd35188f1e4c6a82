import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { PageRequest } from '@civicgraph/protos/civic/graph/v1/graph';
import { storeScope } from '@civicgraph/kit';
import type { GraphStore, NodeQuery } from '../../store/graph-store.js';
import type { NodeDoc } from '../../model/nodes.js';
import type { Cursors } from '@civicgraph/kit';
import { limitParam } from '../params.js';

/** What every query needs: the store and the cursor signer. */
export interface QueryContext {
  store: GraphStore;
  cursors: Cursors;
}

/** Both lists' common values; undefined stands for "everything". */
function intersect(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.filter((x) => b.includes(x));
}

/**
 * One page of a store query with the caller's scope applied inside the store (intersected
 * with the query's own `states`), so a page is never short of what the caller may see; the
 * cursor is bound to `filters`.
 */
export async function scopedPage(
  ctx: QueryContext,
  principal: Principal,
  query: Omit<NodeQuery, 'after' | 'limit' | 'tiers'>,
  page: PageRequest | undefined,
  filters: Record<string, unknown>,
): Promise<{ nodes: NodeDoc[]; nextCursor: string }> {
  const limit = limitParam(page?.limit ?? 0);
  const after = ctx.cursors.decode(page?.cursor ?? '', filters);
  const scope = storeScope(principal);
  const states = intersect(query.states, scope.states);
  if (states !== undefined && states.length === 0) return { nodes: [], nextCursor: '' };
  const res = await ctx.store.query({
    ...query,
    ...(states === undefined ? {} : { states }),
    ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
    ...(after === undefined ? {} : { after }),
    limit,
  });
  return { nodes: res.nodes, nextCursor: res.next === undefined ? '' : ctx.cursors.encode(res.next, filters) };
}
