import type { CivicEvent } from '@civicgraph/kit';
import type { StoreCypher } from '../cypher/store-cypher.js';
import type { EdgeKind, NodeKind } from '../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { GraphReadView } from './read-view.js';
import type { GraphSnapshot } from './snapshot/graph-snapshot.js';

/**
 * The GraphStore port (DESIGN): where the election graph lives. Two adapters pass one
 * conformance suite (store/conformance.ts): the embedded store (LMDB in CIVIC_DATA_DIR,
 * the default) and ArangoDB (distributed). Services talk to this interface only.
 *
 * Writes are change sets applied atomically together with the events that describe them
 * (the outbox), conditional on each node's `rev`, so a change and its event are never
 * stored apart and two writers never silently overwrite each other.
 */
export interface GraphStore {
  /** Applies every part of the change set or none; throws RevConflictError on a stale `expectRev`. */
  commit(changes: ChangeSet): Promise<void>;

  getNode<K extends NodeKind = NodeKind>(slug: string): Promise<NodeDoc<K> | undefined>;
  /** The nodes that exist, in the order asked, missing ones left out. */
  getNodes(slugs: readonly string[]): Promise<NodeDoc[]>;
  /** Edges leaving (`out`) or entering (`in`) a node, optionally of one kind. */
  edges(slug: string, direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[]>;
  /**
   * The same for many nodes in one read: one list per slug, in the order asked (empty for a
   * missing node). A query walking from 200,000 nodes makes one call, not 200,000.
   */
  edgesOf(slugs: readonly string[], direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[][]>;
  /** A page of nodes of one kind, filtered inside the store (scope, indexed fields, dates, confidence). */
  query(q: NodeQuery): Promise<Page>;

  /**
   * Optional: runs a parsed Cypher query inside the store, as one query of its own language
   * (ArangoDB compiles it to AQL). Absent, runCypher evaluates the query on the store's
   * `readView` (the embedded stores). Either way the answer is the same (cypher/two-executors
   * test suite).
   */
  cypher?: StoreCypher;

  /**
   * Optional: the store's in-memory index as a read-optimised layout (store/read-view.ts),
   * reflecting every commit before the call, for a reader that walks much of the graph in
   * one synchronous pass (the Cypher evaluator). Held only until the caller next awaits.
   */
  readView?(): GraphReadView;

  /**
   * Optional: one consistent read-only view of the whole store and the change-feed position
   * it reflects (what bulk exports read; store/snapshot). The embedded and ArangoDB stores
   * have it; the in-memory test store does not.
   */
  snapshot?(): Promise<GraphSnapshot>;

  /** Events committed but not yet acknowledged as published, oldest first. */
  pendingEvents(limit: number): Promise<OutboxEntry[]>;
  /** Marks events published; unknown ids are ignored. */
  ackEvents(ids: readonly string[]): Promise<void>;

  /** Node and edge counts, and bytes held in memory by the adapter's indexes when it knows. */
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}

/** One atomic write. */
export interface ChangeSet {
  /** Creates (`expectRev` 0: must not exist) or replaces (`expectRev` = current rev) a node. */
  put: { node: NodeDoc; expectRev: number }[];
  /** Deletes a node and every edge touching it (`expectRev` = current rev). */
  remove: { slug: string; expectRev: number }[];
  /** Edges to create or replace (identified by kind, from, to, key). */
  link: EdgeDoc[];
  /** Edges to delete; missing ones are ignored. */
  unlink: Pick<EdgeDoc, 'kind' | 'from' | 'to' | 'key'>[];
  /** The events describing this change, published later by the outbox relay. */
  events: CivicEvent[];
}

export interface OutboxEntry {
  /** Commit order, strictly increasing. */
  seq: number;
  event: CivicEvent;
}

/**
 * Node attributes a query can match exactly: each adapter indexes them. What each means
 * for each kind is fixed in one place, `indexKeys` (model/index-keys.ts).
 */
export const INDEXED = ['region', 'office', 'contest', 'person', 'party', 'level', 'election'] as const;
export type Indexed = (typeof INDEXED)[number];

export interface NodeQuery {
  kind: NodeKind;
  /** Scope: the node's `state` must be one of these (empty or absent: every state). */
  states?: readonly string[];
  /** Scope: the node's `tier` must be one of these, or '' (empty or absent: every tier). */
  tiers?: readonly string[];
  /** Exact matches: the node's indexed value must be one of the listed values, for every field named. */
  match?: Partial<Record<Indexed, readonly string[]>>;
  /** Inclusive bounds on the node's date (elections, contests: election day; YYYY-MM-DD). */
  dateFrom?: string;
  dateTo?: string;
  /** Candidacies only: `data.confidence` ≥ this. */
  minConfidence?: number;
  /** Order: by slug (default) or by date then slug. */
  order?: 'slug' | 'date';
  /** Keyset cursor: the `next` of the previous page. */
  after?: string;
  /** 1..1000. */
  limit: number;
}

/** A NodeQuery without its page: what a GraphReadView scan selects. */
export type NodeScan = Omit<NodeQuery, 'order' | 'after' | 'limit'>;

export interface Page {
  nodes: NodeDoc[];
  /** Sort key of the last node when more may follow; undefined on the last page. */
  next: string | undefined;
}

export interface StoreStats {
  nodes: number;
  edges: number;
  pendingEvents: number;
  /** Bytes held by in-memory indexes; null when the adapter keeps none. */
  indexBytes: number | null;
}

/** A conditional write met a node changed since it was read. The caller re-reads and retries. */
export class RevConflictError extends Error {
  constructor(
    readonly slug: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`${slug} is at rev ${actual}, not ${expected}`);
    this.name = 'RevConflictError';
  }
}
