import type { CivicEvent } from '@civicgraph/kit';
import type { EdgeDoc } from '../../model/nodes.js';
import { checkRevs } from '../change-set.js';
import type { ChangeSet } from '../graph-store.js';
import type { EdgeRef } from '../memory/edge-index.js';
import { logCommit } from './change-log.js';
import {
  inKey,
  nodeRange,
  outKey,
  refOfInKey,
  refOfOutKey,
  type ChangeLogEntry,
  type EdgeKey,
  type GraphDbs,
} from './lmdb-schema.js';

/**
 * Writes a prepared change set (store/change-set.ts: nodes already at their new rev)
 * inside the current LMDB write transaction, which must be a child transaction so a throw
 * rolls every write back. Revs are checked against LMDB, not the caller's index: another
 * process may have written since. Returns the commit number.
 */
export function writeChangeSet(dbs: GraphDbs, changes: ChangeSet): number {
  checkRevs(changes, (slug) => dbs.nodes.get(slug)?.rev ?? 0);
  const log: ChangeLogEntry = { nodes: [], edges: [] };
  const logEdge = (e: EdgeRef): number => log.edges.push([e.kind, e.from, e.to, e.key]);
  for (const { node } of changes.put) {
    dbs.nodes.putSync(node.slug, node);
    log.nodes.push(node.slug);
  }
  for (const { slug } of changes.remove) {
    for (const e of edgesTouching(dbs, slug)) if (deleteEdge(dbs, e)) logEdge(e);
    dbs.nodes.removeSync(slug);
    log.nodes.push(slug);
  }
  for (const ref of changes.unlink) if (deleteEdge(dbs, ref)) logEdge(ref);
  for (const edge of changes.link) {
    putEdge(dbs, edge);
    logEdge(edge);
  }
  appendEvents(dbs, changes.events);
  return logCommit(dbs, log);
}

function putEdge(dbs: GraphDbs, edge: EdgeDoc): void {
  dbs.edgesOut.putSync(outKey(edge), edge.data);
  dbs.edgesIn.putSync(inKey(edge), true);
}

function deleteEdge(dbs: GraphDbs, ref: EdgeRef): boolean {
  dbs.edgesIn.removeSync(inKey(ref));
  return dbs.edgesOut.removeSync(outKey(ref));
}

/** Edges leaving and entering `slug`, read before any is deleted. */
function edgesTouching(dbs: GraphDbs, slug: string): EdgeRef[] {
  const out = [...dbs.edgesOut.getKeys(nodeRange(slug))].map((k) => refOfOutKey(k as EdgeKey));
  const inn = [...dbs.edgesIn.getKeys(nodeRange(slug))].map((k) => refOfInKey(k as EdgeKey));
  return out.concat(inn);
}

/** Appends events with increasing seq; a repeated pending id moves to the end, as in memory. */
function appendEvents(dbs: GraphDbs, events: readonly CivicEvent[]): void {
  if (events.length === 0) return;
  let seq = dbs.meta.get('seq') ?? 0;
  for (const event of events) {
    const old = dbs.outboxIds.get(event.id);
    if (old !== undefined) dbs.outbox.removeSync(old);
    seq++;
    dbs.outbox.putSync(seq, event);
    dbs.outboxIds.putSync(event.id, seq);
  }
  dbs.meta.putSync('seq', seq);
}

/** Within a write transaction: drops acknowledged events; unknown ids are ignored. */
export function ackEvents(dbs: GraphDbs, ids: readonly string[]): void {
  for (const id of ids) {
    const seq = dbs.outboxIds.get(id);
    if (seq === undefined) continue;
    dbs.outbox.removeSync(seq);
    dbs.outboxIds.removeSync(id);
  }
}
