import { indexKeys } from '../../model/index-keys.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import type { Indexed } from '../graph-store.js';
import { edgeKey, encodeKey } from './arango-keys.js';

/**
 * How nodes and edges are stored in ArangoDB: the storage-neutral documents of the model,
 * plus the derived attributes the indexes and AQL filters read. The derived attributes are
 * computed from `indexKeys` (model/index-keys.ts), the definition every adapter shares.
 */

/** The fields of a NodeDoc, and nothing else: what reads project stored nodes back to. */
export const NODE_FIELDS = [
  'slug',
  'kind',
  'state',
  'tier',
  'data',
  'rev',
  'updatedAt',
] as const satisfies readonly (keyof NodeDoc)[];
/** The fields of an EdgeDoc. */
export const EDGE_FIELDS = ['kind', 'from', 'to', 'key', 'data'] as const satisfies readonly (keyof EdgeDoc)[];

export interface StoredNode extends NodeDoc {
  _key: string;
  /** `indexKeys(node).match`: exact-match values per indexed attribute. */
  idx: Partial<Record<Indexed, string>>;
  /** The node's date (YYYY-MM-DD), null when it has none. */
  date: string | null;
  /** Candidacy confidence, null for other kinds. */
  confidence: number | null;
  /** Order keys (see `orderKey`) of the slug and of the date ('' when none). */
  oslug: string;
  odate: string;
}

export interface StoredEdge extends EdgeDoc {
  _key: string;
  _from: string;
  _to: string;
}

/**
 * A string whose order under ArangoDB's comparison equals the UTF-16 code-unit order of
 * `s` (JavaScript's `<`, which the other adapters and the `sortKey` cursors use).
 * AQL compares strings with an ICU collation (case and punctuation rules of a language),
 * which disagrees with JavaScript on e.g. `A` vs `a` or `:` vs digits. Each code unit
 * becomes four lowercase hex digits, an alphabet on which every collation agrees with code
 * order, so the keyset order is the same in every adapter for any slug.
 */
export function orderKey(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}

/** The `_id` of the node document for a slug in the nodes collection. */
export function nodeHandle(nodesCollection: string, slug: string): string {
  return `${nodesCollection}/${encodeKey(slug)}`;
}

export function toStoredNode(node: NodeDoc): StoredNode {
  const keys = indexKeys(node);
  return {
    _key: encodeKey(node.slug),
    slug: node.slug,
    kind: node.kind,
    state: node.state,
    tier: node.tier,
    data: node.data,
    rev: node.rev,
    updatedAt: node.updatedAt,
    idx: keys.match,
    date: keys.date ?? null,
    confidence: keys.confidence ?? null,
    oslug: orderKey(node.slug),
    odate: orderKey(keys.date ?? ''),
  };
}

export function toStoredEdge(edge: EdgeDoc, nodesCollection: string): StoredEdge {
  return {
    _key: edgeKey(edge),
    _from: nodeHandle(nodesCollection, edge.from),
    _to: nodeHandle(nodesCollection, edge.to),
    kind: edge.kind,
    from: edge.from,
    to: edge.to,
    key: edge.key,
    data: edge.data,
  };
}
