import type { NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';

/**
 * One consistent, read-only view of the whole graph at one commit: what a bulk export reads.
 * Every node and edge it yields, and its `seq`, come from the same point in the commit
 * order, however long the reading takes and whatever is committed meanwhile.
 *
 * `seq` is the change-feed position the view reflects: the outbox seq of the last event
 * committed with a change it holds. Every event numbered at or below it describes a change
 * the view already holds; every event above it, one it does not (a change set's events are
 * numbered in the same transaction as its writes). A client that loads the view and then
 * applies exactly the events above `seq` ends where the store is, missing and doubling nothing.
 */
export interface GraphSnapshot {
  /** The change-feed position (outbox seq) of the view; 0 for a store that never logged an event. */
  readonly seq: number;
  /** Every node of one kind, in slug order. */
  nodes(kind: NodeKind): AsyncIterable<NodeDoc>;
  /** One node as the view holds it (to tell whether an edge's ends exist for a key). */
  getNode(slug: string): Promise<NodeDoc | undefined>;
  /** Every edge, in (from, kind, to, key) order. */
  edges(): AsyncIterable<EdgeDoc>;
  /** How many nodes `nodes(kind)` yields, counted without reading them. */
  countNodes(kind: NodeKind): Promise<number>;
  /** How many edges `edges()` yields, counted without reading them. */
  countEdges(): Promise<number>;
  /** Ends the view (frees the read transaction); the iterators must not be used after. */
  close(): Promise<void>;
}
