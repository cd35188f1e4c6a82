import { makeEvent, type CivicEvent, type NodeView } from '@civicgraph/kit';
import type { NodeKind } from '../model/kinds.js';
import type { NodeDoc } from '../model/nodes.js';

/** The verbs the writer emits; `deleted` is in the catalogue for removals. */
export type WriteVerb = 'created' | 'updated';

/** What an event says about one node. */
export interface NodeChange {
  kind: NodeKind;
  verb: WriteVerb;
  /** The node first; an edge change also names the node at the other end. */
  slugs: string[];
  /** Empty for a created node (the whole node is new), else the changed field names. */
  changedFields: string[];
  /** The node's rev after the change: the version a cache key can carry. */
  rev: number;
  /** The node before the change (absent when created) and after it. */
  before?: NodeDoc;
  after?: NodeDoc;
}

/**
 * The data-change event for one node. Its kind is the node kind (the catalogue in kit
 * lists every node kind, so a kind missing there is a compile error here).
 */
export function nodeEvent(env: string, change: NodeChange, now: Date): CivicEvent {
  const changedFields = change.verb === 'created' ? [] : change.changedFields;
  return makeEvent({
    env,
    kind: change.kind,
    verb: change.verb,
    slugs: change.slugs,
    changedFields,
    version: String(change.rev),
    now,
    changes: fieldChanges(change, changedFields),
    ...(change.after === undefined ? {} : { node: nodeView(change.after) }),
  });
}

/** Old and new values of the changed data fields (edge kinds, like HOLDS, name a link, not a value). */
function fieldChanges(
  change: NodeChange,
  fields: readonly string[],
): { field: string; before: unknown; after: unknown }[] {
  const before = valuesOf(change.before);
  const after = valuesOf(change.after);
  return fields
    .filter((f) => f in before || f in after)
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

/** A node's field values: a candidacy's are its fields' current values (claims stay in the node), others' their data. */
function valuesOf(doc: NodeDoc | undefined): Record<string, unknown> {
  if (doc === undefined) return {};
  const data = doc.data as unknown as Record<string, unknown> & { fields?: Record<string, { value?: unknown }> };
  if (doc.kind !== 'candidacy' || data.fields === undefined) return data;
  return Object.fromEntries(Object.entries(data.fields).map(([k, f]) => [k, f?.value ?? null]));
}

/** The node as events carry it: its document, without store bookkeeping beyond rev. */
/** A stored node as the API shows it (an event's object, an exported row): its document without store bookkeeping beyond rev. */
export function nodeView(doc: NodeDoc): NodeView {
  return {
    slug: doc.slug,
    kind: doc.kind,
    state: doc.state,
    tier: doc.tier,
    rev: doc.rev,
    updatedAt: doc.updatedAt,
    data: doc.data,
  };
}
