import { makeEvent, type CivicEvent } from '@civicgraph/kit';
import type { NodeKind } from '../model/kinds.js';

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
}

/**
 * The data-change event for one node. Its kind is the node kind (the catalogue in kit
 * lists every node kind, so a kind missing there is a compile error here).
 */
export function nodeEvent(env: string, change: NodeChange, now: Date): CivicEvent {
  return makeEvent({
    env,
    kind: change.kind,
    verb: change.verb,
    slugs: change.slugs,
    changedFields: change.verb === 'created' ? [] : change.changedFields,
    version: String(change.rev),
    now,
  });
}
