import type { NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { openGraphDbs, refOfOutKey, type EdgeKey, type GraphDbs } from '../lmdb/lmdb-schema.js';
import type { GraphSnapshot } from './graph-snapshot.js';

/** Above every slug character: the end of one kind's slug range. */
const HIGH = '\uffff';

/**
 * A snapshot of the embedded store: one LMDB read transaction, held until `close`. LMDB is
 * multi-version, so the transaction sees the database exactly as it was when it began —
 * nodes, edges and the outbox counter alike — while writers (this process's or another's)
 * go on committing. Reads come straight from LMDB, not from the service's in-memory index,
 * so an export costs no copy of the graph. The price of a long export: LMDB cannot reuse
 * the pages the transaction still sees, so the file grows by what is written meanwhile.
 */
export function lmdbSnapshot(dbs: GraphDbs): GraphSnapshot {
  const transaction = dbs.root.useReadTransaction();
  const seq = dbs.meta.get('seq', { transaction }) ?? 0;
  let closed = false;
  return {
    seq,
    async *nodes(kind: NodeKind): AsyncIterable<NodeDoc> {
      for (const { value } of dbs.nodes.getRange({ ...kindRange(kind), transaction })) yield value;
    },
    getNode: async (slug) => dbs.nodes.get(slug, { transaction }),
    async *edges(): AsyncIterable<EdgeDoc> {
      for (const { key, value } of dbs.edgesOut.getRange({ transaction }))
        yield { ...refOfOutKey(key as EdgeKey), data: value };
    },
    countNodes: async (kind) => dbs.nodes.getKeysCount({ ...kindRange(kind), transaction }),
    countEdges: async () => dbs.edgesOut.getKeysCount({ transaction }),
    close: async () => {
      if (closed) return;
      closed = true;
      transaction.done();
    },
  };
}

/** The keys of one kind's nodes. */
const kindRange = (kind: NodeKind) => ({ start: `${kind}:`, end: `${kind}:${HIGH}` });

/**
 * Snapshots of an embedded store directory without opening the graph store itself (no
 * in-memory index is built): what a separate export worker process uses, whose memory then
 * stays that of the rows in flight. LMDB lets any number of processes open one directory.
 */
export class LmdbSnapshots {
  private constructor(private readonly dbs: GraphDbs) {}

  static open(path: string): LmdbSnapshots {
    return new LmdbSnapshots(openGraphDbs(path));
  }

  async snapshot(): Promise<GraphSnapshot> {
    // A read transaction lmdb-js already holds may predate another process's last commit.
    this.dbs.root.resetReadTxn();
    return lmdbSnapshot(this.dbs);
  }

  close(): Promise<void> {
    return this.dbs.root.close();
  }
}
