import {
  environmentOf,
  eventObjectView,
  fieldVisible,
  nodeVisible,
  visibleNode,
  type CivicEvent,
} from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';

/**
 * The body a subscriber receives for an event, shaped for the key that owns the endpoint by
 * the same policy module as every other layer: an event in another environment, about a
 * node outside the key's states or tiers, or changing only fields the key may not see, is
 * not delivered at all; without `contact`, the contact fields (a candidacy's campaign
 * channels, an officeholder's offices, emails and links) are absent from the node and from
 * the changes (not null, not redacted).
 *
 *   { "id", "type", "timestamp", "environment", "seq",
 *     "data": { "slugs", "changed_fields", "changes": [{ "field", "before", "after" }], "object" } }
 */
export interface WebhookPayload {
  id: string;
  type: string;
  timestamp: string;
  environment: 'test' | 'live';
  /** The event's position in the change feed (its outbox seq): a client that loaded an export applies only events above the manifest's `position.seq`. */
  seq: number;
  data: {
    slugs: string[];
    changed_fields: string[];
    changes: { field: string; before: unknown; after: unknown }[];
    object: unknown;
  };
}

/** The payload for `principal`, or undefined when the event does not exist for that key. */
export function payloadFor(event: CivicEvent, principal: Principal): WebhookPayload | undefined {
  if (event.environment !== environmentOf(principal)) return undefined;
  const node = eventObjectView(event);
  if (node !== undefined && !nodeVisible(principal, { state: node.state, tier: node.tier })) return undefined;
  const keep = (field: string) => fieldVisible(principal, field);
  const changedFields = event.changedFields.filter(keep);
  // A change to withheld fields alone is no change for this key: telling it one happened would leak it.
  if (event.changedFields.length > 0 && changedFields.length === 0) return undefined;
  return {
    id: event.id,
    type: event.type,
    timestamp: event.occurredAt,
    environment: event.environment === 'live' ? 'live' : 'test',
    seq: Number(event.seq),
    data: {
      slugs: event.slugs,
      changed_fields: changedFields,
      changes: event.changes
        .filter((c) => keep(c.field))
        .map((c) => ({ field: c.field, before: c.before ?? null, after: c.after ?? null })),
      object: node === undefined ? null : visibleNode(principal, node),
    },
  };
}
