import { EDGE_ENDS, NODE_KINDS, type EdgeKind, type NodeKind } from '../src/model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../src/model/nodes.js';
import type { GraphStore } from '../src/store/graph-store.js';

/** A whole (small) graph, read through the store port: nodes by kind, edges by type. */
export interface WholeGraph {
  nodes: Map<NodeKind, NodeDoc[]>;
  edges: Map<EdgeKind, EdgeDoc[]>;
}

/** Every node, a page at a time per kind, and every edge, from the node it leaves. */
export async function readGraph(store: GraphStore): Promise<WholeGraph> {
  const nodes = new Map<NodeKind, NodeDoc[]>();
  for (const kind of NODE_KINDS) {
    const docs: NodeDoc[] = [];
    let after: string | undefined;
    do {
      const page = await store.query({ kind, limit: 1000, ...(after === undefined ? {} : { after }) });
      docs.push(...page.nodes);
      after = page.next;
    } while (after !== undefined);
    nodes.set(kind, docs);
  }
  const edges = new Map<EdgeKind, EdgeDoc[]>(Object.keys(EDGE_ENDS).map((k) => [k as EdgeKind, []]));
  for (const docs of nodes.values()) {
    for (const d of docs) for (const e of await store.edges(d.slug, 'out')) edges.get(e.kind)!.push(e);
  }
  return { nodes, edges };
}
