import type { NodeKind } from '../../model/kinds.js';
import { edgeOfOut, openGraphDbs, type EdgeKey, type GraphDbs } from '../lmdb/lmdb-schema.js';
import type { GraphSnapshot } from './graph-snapshot.js';

/**
 * LMDB's synchronous range as the async iterable a snapshot yields: each step a resolved
 * promise, which costs an export reading every row half what an async generator's did.
 * Ending the loop early closes the range (and its cursor).
 */
function asyncOf<T>(items: Iterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const it = items[Symbol.iterator]();
      return {
        next: () => Promise.resolve(it.next()),
        return: (value?: T) => Promise.resolve(it.return?.(value) ?? { done: true as const, value }),
      };
    },
  };
}

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
    nodes: (kind) => asyncOf(dbs.nodes.getRange({ ...kindRange(kind), transaction }).map(({ value }) => value)),
    getNode: async (slug) => dbs.nodes.get(slug, { transaction }),
    edges: () =>
      asyncOf(dbs.edgesOut.getRange({ transaction }).map(({ key, value }) => edgeOfOut(key as EdgeKey, value))),
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
