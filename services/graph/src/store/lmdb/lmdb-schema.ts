import { open, type Database, type RootDatabase } from 'lmdb';
import type { CivicEvent } from '@civicgraph/kit';
import type { EdgeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import type { EdgeRef } from '../memory/edge-index.js';

/**
 * The LMDB layout of the embedded graph store: one environment (a directory holding
 * `data.mdb` and `lock.mdb`) with these named databases, values in MessagePack (lmdb-js's
 * default encoding; no shared structures, so any process can decode any value alone):
 *
 * | db          | key                          | value                         |
 * |-------------|------------------------------|-------------------------------|
 * | nodes       | slug                         | NodeDoc                       |
 * | edges-out   | [from, kind, to, key]        | edge data                     |
 * | edges-in    | [to, kind, from, key]        | true (finds a removed node's in-edges) |
 * | outbox      | seq (number)                 | CivicEvent                    |
 * | outbox-ids  | event id                     | seq (ack by id)               |
 * | meta        | 'commit' / 'seq'             | last commit number / last seq |
 * | log         | commit number                | ChangeLogEntry (change-log.ts)|
 *
 * Array keys are ordered element by element (ordered-binary), so every edge leaving a
 * node is one key range, `[slug]` up to `[slug, HIGH]`.
 */
export interface GraphDbs {
  root: RootDatabase;
  nodes: Database<NodeDoc, string>;
  edgesOut: Database<EdgeDoc['data'], EdgeKey>;
  edgesIn: Database<true, EdgeKey>;
  outbox: Database<CivicEvent, number>;
  outboxIds: Database<number, string>;
  meta: Database<number, MetaKey>;
  log: Database<ChangeLogEntry, number>;
}

export type EdgeKey = [string, EdgeKind, string, string];
export type MetaKey = 'commit' | 'seq';

/** What one commit changed: slugs of nodes put or removed, and edges linked or deleted. */
export interface ChangeLogEntry {
  nodes: string[];
  edges: [EdgeKind, string, string, string][];
}

/** Above every kind name and slug character: the end of a node's key range. */
const HIGH = '\uffff';

export function openGraphDbs(path: string): GraphDbs {
  const root = open({
    path,
    // overlappingSync (lmdb-js's default on Linux and macOS) would let a commit's promise
    // resolve before its pages are flushed. Acknowledged writes must survive a crash, so
    // commits are synced before they resolve (noSync stays off, as by default).
    overlappingSync: false,
  });
  return {
    root,
    nodes: root.openDB<NodeDoc, string>('nodes', {}),
    edgesOut: root.openDB<EdgeDoc['data'], EdgeKey>('edges-out', {}),
    edgesIn: root.openDB<true, EdgeKey>('edges-in', {}),
    outbox: root.openDB<CivicEvent, number>('outbox', {}),
    outboxIds: root.openDB<number, string>('outbox-ids', {}),
    meta: root.openDB<number, MetaKey>('meta', {}),
    log: root.openDB<ChangeLogEntry, number>('log', {}),
  };
}

export const outKey = (e: EdgeRef): EdgeKey => [e.from, e.kind, e.to, e.key];
export const inKey = (e: EdgeRef): EdgeKey => [e.to, e.kind, e.from, e.key];
export const refOfOutKey = ([from, kind, to, key]: EdgeKey): EdgeRef => ({ kind, from, to, key });
export const refOfInKey = ([to, kind, from, key]: EdgeKey): EdgeRef => ({ kind, from, to, key });
/** The edge an out-key and its value store, built in one object (loading and exporting read every edge). */
export const edgeOfOut = ([from, kind, to, key]: EdgeKey, data: EdgeDoc['data']): EdgeDoc => ({
  kind,
  from,
  to,
  key,
  data,
});

/** The key range of every edge at one end of `slug`. */
export function nodeRange(slug: string): { start: [string]; end: [string, string] } {
  return { start: [slug], end: [slug, HIGH] };
}
