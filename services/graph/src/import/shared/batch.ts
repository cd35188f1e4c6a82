import type { DraftBatch, DraftItem, NodeDraft, Rejection } from '../../domain/drafts.js';
import type { EdgeKind } from '../../model/kinds.js';
import { edgeId, type EdgeDoc } from '../../model/nodes.js';

/** An edge with an empty key and no data unless given. */
export function edge(kind: EdgeKind, from: string, to: string, key = '', data: EdgeDoc['data'] = {}): EdgeDoc {
  return { kind, from, to, key, data };
}

/**
 * A batch of drafts, with the nodes de-duplicated by slug (first wins) and a SUPPORTED_BY
 * edge from every node the source states (not references, not provenance) to `provenance`.
 */
export function sourcedBatch(nodes: readonly NodeDraft[], edges: readonly EdgeDoc[], provenance: string): DraftBatch {
  const unique = firstBy(nodes, (n) => n.slug);
  const supported = unique
    .filter((n) => n.kind !== 'provenance' && !('createOnly' in n && n.createOnly === true))
    .map((n) => edge('SUPPORTED_BY', n.slug, provenance));
  return { nodes: unique, edges: firstBy([...edges, ...supported], edgeId) };
}

function firstBy<T>(items: readonly T[], id: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(id(item))) seen.set(id(item), item);
  return [...seen.values()];
}

export function batchItem(at: string, batch: DraftBatch): DraftItem {
  return { batch, at };
}

export function rejected(at: string, reason: string): DraftItem {
  return { rejected: { at, reason } satisfies Rejection };
}

/** Whether an item is a rejection (for counting and tests). */
export function isRejection(item: DraftItem): item is { rejected: Rejection } {
  return 'rejected' in item;
}
