import type { Database } from 'arangojs';
import { aql, type AqlQuery } from 'arangojs/aql';
import type { NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { EDGE_FIELDS, NODE_FIELDS } from '../arango/arango-documents.js';
import { tryEncodeKey } from '../arango/arango-keys.js';
import { OUTBOX_SEQ_KEY, type ArangoCollections } from '../arango/statements-aql.js';
import type { GraphSnapshot } from './graph-snapshot.js';

/** Rows fetched per AQL step. */
const PAGE = 2_000;

/**
 * A snapshot of the ArangoDB store: one read-only stream transaction over nodes, edges and
 * the outbox counter. On a single server (RocksDB engine) a transaction reads from one
 * RocksDB snapshot taken when it starts, so every step below — the counter, then the
 * pages of nodes and edges — sees the same commit however long the export runs; commits
 * take the counter exclusively (arango-commit.ts), so the counter read matches the data.
 * Pages are keyset queries run as steps of that transaction (not one long cursor), which
 * also keeps the transaction's idle timeout from expiring between pages.
 *
 * In a cluster a stream transaction has one snapshot per shard leader, not one across the
 * cluster: an export there is consistent per shard, and the README says so.
 */
export async function arangoSnapshot(db: Database, c: ArangoCollections): Promise<GraphSnapshot> {
  const trx = await db.beginTransaction({ read: [c.nodes, c.edges, c.meta] });
  const all = async <T>(q: AqlQuery): Promise<T[]> => (await trx.step(() => db.query<T>(q))).all();
  const [seq] = await all<number | null>(aql`RETURN DOCUMENT(${c.meta}, ${OUTBOX_SEQ_KEY}).value`);
  let closed = false;
  return {
    seq: seq ?? 0,
    async *nodes(kind: NodeKind): AsyncIterable<NodeDoc> {
      let after = '';
      for (;;) {
        const page = await all<NodeDoc & { oslug: string }>(aql`
          FOR n IN ${c.nodes} FILTER n.kind == ${kind} AND n.oslug > ${after} SORT n.oslug LIMIT ${PAGE}
          RETURN MERGE(KEEP(n, ${NODE_FIELDS}), { oslug: n.oslug })`);
        for (const { oslug: _, ...node } of page) yield node as NodeDoc;
        if (page.length < PAGE) return;
        after = page[page.length - 1]!.oslug;
      }
    },
    async getNode(slug: string): Promise<NodeDoc | undefined> {
      const key = tryEncodeKey(slug);
      if (key === undefined) return undefined;
      const [node] = await all<NodeDoc | null>(aql`RETURN KEEP(DOCUMENT(${c.nodes}, ${key}), ${NODE_FIELDS})`);
      return node ?? undefined;
    },
    async *edges(): AsyncIterable<EdgeDoc> {
      let after = '';
      for (;;) {
        const page = await all<EdgeDoc & { k: string }>(aql`
          FOR e IN ${c.edges} FILTER e._key > ${after} SORT e._key LIMIT ${PAGE}
          RETURN MERGE(KEEP(e, ${EDGE_FIELDS}), { k: e._key })`);
        for (const { k: _, ...edge } of page) yield edge as EdgeDoc;
        if (page.length < PAGE) return;
        after = page[page.length - 1]!.k;
      }
    },
    async countNodes(kind: NodeKind): Promise<number> {
      const [n] = await all<number>(aql`RETURN COUNT(FOR n IN ${c.nodes} FILTER n.kind == ${kind} RETURN 1)`);
      return n ?? 0;
    },
    async countEdges(): Promise<number> {
      const [n] = await all<number>(aql`RETURN COUNT(${c.edges})`);
      return n ?? 0;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await trx.abort().catch(() => undefined);
    },
  };
}
