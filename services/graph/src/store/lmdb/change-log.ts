import type { GraphIndex } from '../memory/graph-index.js';
import type { EdgeRef } from '../memory/edge-index.js';
import { outKey, type ChangeLogEntry, type GraphDbs } from './lmdb-schema.js';

/**
 * The change log that lets every process holding the store in memory follow writes made
 * by any other process on the same directory (the `civicgraph import` CLI while the
 * service runs). Each commit bumps `meta.commit` and logs which slugs and edges it
 * touched; a reader compares the counter with the last commit it applied (one get) and,
 * when behind, re-reads just those slugs and edges from one LMDB snapshot. Re-reading
 * current values instead of replaying operations makes applying idempotent and order
 * independent, so a commit seen twice (own and logged) does no harm.
 *
 * The log keeps the last LOG_KEEP commits; a reader further behind rebuilds its index.
 */
export const LOG_KEEP = 100_000;

/** Within a write transaction: the next commit number, recorded with what it touched. */
export function logCommit(dbs: GraphDbs, entry: ChangeLogEntry): number {
  const commit = (dbs.meta.get('commit') ?? 0) + 1;
  dbs.meta.putSync('commit', commit);
  dbs.log.putSync(commit, entry);
  if (commit > LOG_KEEP) dbs.log.removeSync(commit - LOG_KEEP);
  return commit;
}

/** The last commit number, from a fresh snapshot. */
export function headCommit(dbs: GraphDbs): number {
  // lmdb-js keeps one read transaction until the next macrotask (or its own next commit);
  // another process's commit is only visible after a reset. Cheap: a renew, no I/O.
  dbs.root.resetReadTxn();
  return dbs.meta.get('commit') ?? 0;
}

/**
 * Brings `index` from commit `from` up to `head` by re-reading what the commits between
 * touched. Returns false when the log no longer reaches back that far.
 */
export function applyLog(dbs: GraphDbs, index: GraphIndex, from: number, head: number): boolean {
  const entries: ChangeLogEntry[] = [];
  for (let n = from + 1; n <= head; n++) {
    const entry = dbs.log.get(n);
    if (entry === undefined) return false;
    entries.push(entry);
  }
  for (const entry of entries) {
    for (const slug of entry.nodes) refreshNode(dbs, index, slug);
    for (const [kind, from, to, key] of entry.edges) refreshEdge(dbs, index, { kind, from, to, key });
  }
  return true;
}

function refreshNode(dbs: GraphDbs, index: GraphIndex, slug: string): void {
  const node = dbs.nodes.get(slug);
  if (node === undefined) index.removeNode(slug);
  else index.putNode(node);
}

function refreshEdge(dbs: GraphDbs, index: GraphIndex, ref: EdgeRef): void {
  const data = dbs.edgesOut.get(outKey(ref));
  if (data === undefined) index.unlink(ref);
  else index.link({ ...ref, data });
}
