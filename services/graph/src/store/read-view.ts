import type { EdgeKind, NodeKind } from '../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { NodeScan } from './graph-store.js';

/**
 * The graph laid out for reading much of it in one synchronous pass (the Cypher evaluator):
 * nodes by dense integer id, with the attributes every read tests (kind, scope, confidence)
 * in typed arrays beside the documents, and each edge kind's adjacency, per direction, in
 * compressed sparse rows. A walk over 200,000 nodes then reads consecutive numbers instead
 * of following a map entry, a list and a document per node.
 *
 * Ids are valid for one view only: a store hands out a new view after any commit. What it
 * holds (documents, edges) is the index's own: read it, never keep or change it.
 */
export interface GraphReadView {
  /** Ids are 0 … nodeCount − 1; each kind's nodes are one run of them, in slug order. */
  readonly nodeCount: number;
  readonly docs: readonly NodeDoc[];
  /** Per id: the node's kind, as its position in NODE_KINDS. */
  readonly kindOf: Uint8Array;
  /** Per id: the node's state, as its position in `states`. */
  readonly stateOf: Uint16Array;
  readonly states: readonly string[];
  /** Per id: the node's tier, as its position in `tiers`. */
  readonly tierOf: Uint16Array;
  readonly tiers: readonly string[];
  /** Per id: a candidacy's confidence (as the store's query filters it); NaN for other kinds. */
  readonly confidence: Float64Array;
  /** The id of the node with this slug; -1 when there is none. */
  idOf(slug: string): number;
  /** The ids of a kind's nodes: [first, end). */
  idsOf(kind: NodeKind): readonly [number, number];
  /** The edges of a kind by their `from` (`out`) or `to` (`in`) node; undefined when the kind has none. */
  adjacency(kind: EdgeKind, direction: 'out' | 'in'): Adjacency | undefined;
  /** Calls `visit` with the id of every node the query selects, in slug order (a NodeQuery without paging). */
  scan(q: NodeScan, visit: (id: number) => void): void;
}

/**
 * Compressed sparse rows: node `id`'s edges are positions offsets[id] … offsets[id + 1] − 1
 * of `targets` (the node at the other end) and `edges` (the edge itself).
 */
export interface Adjacency {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  readonly edges: readonly EdgeDoc[];
}
