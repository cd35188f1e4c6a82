import type { CivicEvent } from '@civicgraph/kit';
import { aql, type AqlQuery } from 'arangojs/aql';
import type { DocumentCollection, EdgeCollection } from 'arangojs/collections';
import type { EdgeKind } from '../../model/kinds.js';
import { EDGE_FIELDS, NODE_FIELDS, type StoredEdge, type StoredNode } from './arango-documents.js';

/**
 * Every AQL statement of the adapter except `query` (node-query-aql.ts). Each is fixed
 * text with the caller's values as bind variables; collections are bound as `@@` names.
 */

/** The collections of one store. */
export interface ArangoCollections {
  nodes: DocumentCollection;
  edges: EdgeCollection;
  outbox: DocumentCollection;
  /** Counters: the outbox sequence. */
  meta: DocumentCollection;
}

/**
 * The current revs of the nodes with these keys, as one object `{ key: rev }` (absent keys:
 * no such node). One row, so it arrives in the first batch, inside the transaction.
 */
export function currentRevsAql(nodes: DocumentCollection, keys: readonly string[]): AqlQuery {
  return aql`
    LET found = (FOR n IN ${nodes} FILTER n._key IN ${keys} RETURN { k: n._key, r: n.rev })
    RETURN ZIP(found[*].k, found[*].r)
  `;
}

/** Deletes every edge entering or leaving the nodes with these `_id`s. */
export function removeTouchingEdgesAql(edges: EdgeCollection, handles: readonly string[]): AqlQuery {
  return aql`
    LET touching = UNION_DISTINCT(
      (FOR e IN ${edges} FILTER e._from IN ${handles} RETURN e._key),
      (FOR e IN ${edges} FILTER e._to IN ${handles} RETURN e._key)
    )
    FOR k IN touching REMOVE k IN ${edges}
  `;
}

/** Deletes nodes by key; a missing one (a remove expecting rev 0) is no error. */
export function removeNodesAql(nodes: DocumentCollection, keys: readonly string[]): AqlQuery {
  return aql`FOR k IN ${keys} REMOVE k IN ${nodes} OPTIONS { ignoreErrors: true }`;
}

export function putNodesAql(nodes: DocumentCollection, docs: readonly StoredNode[]): AqlQuery {
  return aql`FOR d IN ${docs} INSERT d INTO ${nodes} OPTIONS { overwriteMode: "replace" }`;
}

/** Deletes edges by key; missing ones are ignored, as the port says. */
export function unlinkAql(edges: EdgeCollection, keys: readonly string[]): AqlQuery {
  return aql`FOR k IN ${keys} REMOVE k IN ${edges} OPTIONS { ignoreErrors: true }`;
}

export function linkAql(edges: EdgeCollection, docs: readonly StoredEdge[]): AqlQuery {
  return aql`FOR d IN ${docs} INSERT d INTO ${edges} OPTIONS { overwriteMode: "replace" }`;
}

/** The counter document of the outbox sequence in `meta`. */
export const OUTBOX_SEQ_KEY = 'outbox-seq';

/** Advances the outbox counter by `count` and returns its new value (the last seq reserved). */
export function reserveSeqAql(meta: DocumentCollection, count: number): AqlQuery {
  return aql`
    UPSERT { _key: ${OUTBOX_SEQ_KEY} }
    INSERT { _key: ${OUTBOX_SEQ_KEY}, value: ${count} }
    UPDATE { value: OLD.value + ${count} }
    IN ${meta}
    RETURN NEW.value
  `;
}

/** An outbox document: keyed by its seq, so seqs are unique by construction. */
export interface StoredOutboxEntry {
  _key: string;
  seq: number;
  event: CivicEvent;
}

/** The outbox documents for `events`, numbered up to `lastSeq` in commit order. */
export function outboxEntries(events: readonly CivicEvent[], lastSeq: number): StoredOutboxEntry[] {
  const first = lastSeq - events.length + 1;
  return events.map((event, i) => ({ _key: String(first + i), seq: first + i, event }));
}

export function appendOutboxAql(outbox: DocumentCollection, entries: readonly StoredOutboxEntry[]): AqlQuery {
  return aql`FOR d IN ${entries} INSERT d INTO ${outbox}`;
}

export function pendingEventsAql(outbox: DocumentCollection, limit: number): AqlQuery {
  return aql`FOR o IN ${outbox} SORT o.seq LIMIT ${limit} RETURN { seq: o.seq, event: o.event }`;
}

/** Acknowledged events leave the outbox; ids not in it match nothing. */
export function ackEventsAql(outbox: DocumentCollection, ids: readonly string[]): AqlQuery {
  return aql`FOR o IN ${outbox} FILTER o.event.id IN ${ids} REMOVE o IN ${outbox}`;
}

/** Nodes by key, in no particular order (the caller restores the order asked). */
export function nodesByKeyAql(nodes: DocumentCollection, keys: readonly string[]): AqlQuery {
  return aql`FOR n IN ${nodes} FILTER n._key IN ${keys} RETURN KEEP(n, ${[...NODE_FIELDS]})`;
}

/**
 * Edges leaving (`out`) or entering (`in`) the node with `_id` `handle`, served by the edge
 * index (and the vertex-centric from-kind / to-kind indexes). An edge filter rather than a
 * one-step traversal on purpose: edges may name nodes not stored yet (an importer links a
 * party before importing it), and a traversal from a start vertex that does not exist
 * returns nothing at all.
 */
export function edgesAql(edges: EdgeCollection, handle: string, direction: 'out' | 'in', kind?: EdgeKind): AqlQuery {
  const end = direction === 'out' ? aql`e._from` : aql`e._to`;
  return aql`
    FOR e IN ${edges}
      FILTER ${end} == ${handle}
      ${kind === undefined ? undefined : aql`FILTER e.kind == ${kind}`}
      RETURN KEEP(e, ${[...EDGE_FIELDS]})
  `;
}

/** The edges of many nodes in one query: one list per node handle, in the order given. */
export function edgesOfAql(
  edges: EdgeCollection,
  handles: readonly string[],
  direction: 'out' | 'in',
  kind?: EdgeKind,
): AqlQuery {
  const end = direction === 'out' ? aql`e._from` : aql`e._to`;
  return aql`
    FOR h IN ${handles}
      RETURN (
        FOR e IN ${edges}
          FILTER ${end} == h
          ${kind === undefined ? undefined : aql`FILTER e.kind == ${kind}`}
          RETURN KEEP(e, ${[...EDGE_FIELDS]})
      )
  `;
}

export function statsAql(c: ArangoCollections): AqlQuery {
  return aql`RETURN { nodes: LENGTH(${c.nodes}), edges: LENGTH(${c.edges}), pendingEvents: LENGTH(${c.outbox}) }`;
}
