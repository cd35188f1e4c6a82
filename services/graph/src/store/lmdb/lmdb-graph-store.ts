import type { EdgeKind, NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { prepareChangeSet, validateChangeSet } from '../change-set.js';
import type { ChangeSet, GraphStore, NodeQuery, OutboxEntry, Page, StoreStats } from '../graph-store.js';
import type { GraphReadView } from '../read-view.js';
import { applyToIndex } from '../memory/apply-changes.js';
import { GraphIndex } from '../memory/graph-index.js';
import { applyLog, headCommit } from './change-log.js';
import { edgeOfOut, openGraphDbs, type EdgeKey, type GraphDbs } from './lmdb-schema.js';
import { ackEvents, writeChangeSet } from './lmdb-write.js';
import type { GraphSnapshot } from '../snapshot/graph-snapshot.js';
import { lmdbSnapshot } from '../snapshot/lmdb-snapshot.js';

/**
 * The embedded GraphStore (the default): LMDB in a directory (layout in lmdb-schema.ts),
 * with every read served from an in-memory GraphIndex built at open.
 *
 * Durable: `commit` is one LMDB write transaction (nodes, edges, outbox events, change
 * log) and resolves only after LMDB has synced it, so an acknowledged write survives
 * `kill -9`; a killed writer leaves the last whole transaction, never half of one.
 *
 * Shared: another process may write the same directory (the `civicgraph import` CLI while
 * the service runs). Before each read the store compares LMDB's commit counter with the
 * last commit its index holds (one get) and applies the logged changes in between
 * (change-log.ts), so a read sees every commit that resolved before it began, from any
 * process. Revs are checked inside the write transaction against LMDB itself.
 *
 * Documents read from it are frozen (see GraphIndex): copy them before editing.
 */
export class LmdbGraphStore implements GraphStore {
  /** The last commit the index reflects. */
  private seen: number;
  private closed = false;

  private constructor(
    private readonly dbs: GraphDbs,
    private index: GraphIndex,
    seen: number,
  ) {
    this.seen = seen;
  }

  /** Opens (creating if needed) the store in directory `path` and loads its index. */
  static async open(path: string): Promise<LmdbGraphStore> {
    const dbs = openGraphDbs(path);
    const seen = headCommit(dbs);
    return new LmdbGraphStore(dbs, loadIndex(dbs), seen);
  }

  async commit(changes: ChangeSet): Promise<void> {
    this.assertOpen();
    validateChangeSet(changes);
    const prepared = prepareChangeSet(changes);
    // A child transaction, so a throw (a rev conflict, an unencodable value) rolls back
    // this change set alone, not others batched into the same LMDB transaction.
    const commit = await this.dbs.root.childTransaction(() => writeChangeSet(this.dbs, prepared));
    if (commit === this.seen + 1) {
      applyToIndex(this.index, prepared);
      this.seen = commit;
    } else if (commit > this.seen) {
      this.catchUp();
    }
  }

  async getNode<K extends NodeKind = NodeKind>(slug: string): Promise<NodeDoc<K> | undefined> {
    this.read();
    return this.index.get(slug) as NodeDoc<K> | undefined;
  }

  async getNodes(slugs: readonly string[]): Promise<NodeDoc[]> {
    this.read();
    return slugs.flatMap((s) => this.index.get(s) ?? []);
  }

  async edges(slug: string, direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[]> {
    this.read();
    return this.index.edges(slug, direction, kind);
  }

  async edgesOf(slugs: readonly string[], direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[][]> {
    this.read();
    return slugs.map((slug) => this.index.edges(slug, direction, kind));
  }

  async query(q: NodeQuery): Promise<Page> {
    this.read();
    return this.index.query(q);
  }

  /** The index as of LMDB's newest commit (another process's included). */
  readView(): GraphReadView {
    this.read();
    return this.index.readView();
  }

  async pendingEvents(limit: number): Promise<OutboxEntry[]> {
    this.assertOpen();
    if (limit < 1) return [];
    this.dbs.root.resetReadTxn();
    return [...this.dbs.outbox.getRange({ limit })].map(({ key, value }) => ({ seq: key, event: value }));
  }

  async ackEvents(ids: readonly string[]): Promise<void> {
    this.assertOpen();
    if (ids.length > 0) await this.dbs.root.childTransaction(() => ackEvents(this.dbs, ids));
  }

  async snapshot(): Promise<GraphSnapshot> {
    this.assertOpen();
    // The read transaction lmdb-js holds may predate another process's last commit.
    this.dbs.root.resetReadTxn();
    return lmdbSnapshot(this.dbs);
  }

  async stats(): Promise<StoreStats> {
    this.read();
    // lmdb-js types getStats() as {}; it returns LMDB's mdb_stat, entryCount included.
    const pendingEvents = (this.dbs.outbox.getStats() as { entryCount: number }).entryCount;
    return {
      nodes: this.index.nodeCount,
      edges: this.index.edgeCount,
      pendingEvents,
      indexBytes: this.index.approxBytes(),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.dbs.root.close();
  }

  /** Every read starts here: brings the index up to LMDB's newest commit. */
  private read(): void {
    this.assertOpen();
    this.catchUp();
  }

  private catchUp(): void {
    const head = headCommit(this.dbs);
    if (head === this.seen) return;
    if (head < this.seen || !applyLog(this.dbs, this.index, this.seen, head)) this.index = loadIndex(this.dbs);
    this.seen = head;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the LmdbGraphStore is closed');
  }
}

/** Builds the index from the current snapshot (the caller has just reset it). */
function loadIndex(dbs: GraphDbs): GraphIndex {
  const index = new GraphIndex();
  for (const { value } of dbs.nodes.getRange()) index.putNode(value);
  for (const { key, value } of dbs.edgesOut.getRange()) index.linkNew(edgeOfOut(key as EdgeKey, value));
  return index;
}
