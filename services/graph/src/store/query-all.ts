import type { NodeDoc } from '../model/nodes.js';
import type { GraphStore, NodeQuery } from './graph-store.js';

/** More nodes than any one answer (a ballot, a contest's results) should ever hold. */
export const MAX_ANSWER_NODES = 20_000;

/**
 * Every node a query matches, following the store's pages (each at most 1,000), so an
 * answer is never silently cut at one page. More than MAX_ANSWER_NODES is an error: an
 * answer that large is a bug or an attack, not a ballot.
 */
export async function queryAll(store: GraphStore, q: Omit<NodeQuery, 'after' | 'limit'>): Promise<NodeDoc[]> {
  const out: NodeDoc[] = [];
  let after: string | undefined;
  do {
    const page = await store.query({ ...q, ...(after === undefined ? {} : { after }), limit: 1000 });
    out.push(...page.nodes);
    after = page.next;
    if (out.length > MAX_ANSWER_NODES)
      throw new Error(`query for ${q.kind} matched more than ${MAX_ANSWER_NODES} nodes`);
  } while (after !== undefined);
  return out;
}
