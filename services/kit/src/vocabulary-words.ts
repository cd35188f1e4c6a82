import {
  EdgeKind as EdgeKindValue,
  EventKind as EventKindValue,
  EventVerb as EventVerbValue,
  NodeKind as NodeKindValue,
  SpecificEventType as SpecificEventTypeValue,
} from '@civicgraph/protos/civic/vocabulary/v1/vocabulary';

/**
 * The public words of civic.vocabulary.v1 (protos/civic/vocabulary/v1/vocabulary.proto),
 * derived from its enums so no layer keeps its own list. This is the one place an enum
 * value name becomes a word: the prefix goes, node kinds, event kinds and verbs are
 * lowercase (`NODE_KIND_REGION` → `region`), edge kinds stay upper snake
 * (`EDGE_KIND_IN_REGION` → `IN_REGION`). The types are derived the same way, so a value
 * added to the proto is a new word here and in every exhaustive map at compile time.
 */

/** The value names of a ts-proto enum after `<prefix>_`, without UNSPECIFIED and UNRECOGNIZED. */
type Suffixes<Name, Prefix extends string> = Name extends `${Prefix}_UNSPECIFIED`
  ? never
  : Name extends `${Prefix}_${infer Rest}`
    ? Rest
    : never;

/** A node's kind, the first word of its slug (`region`, `contest`, …). */
export type NodeKind = Lowercase<Suffixes<keyof typeof NodeKindValue, 'NODE_KIND'>>;
/** An edge kind (`IN_REGION`, `HOLDS`, …). */
export type EdgeKind = Suffixes<keyof typeof EdgeKindValue, 'EDGE_KIND'>;
/** An event kind, the third word of a subject: every node kind, `officeholder` and `key`. */
export type EventKind = NodeKind | Lowercase<Suffixes<keyof typeof EventKindValue, 'EVENT_KIND'>>;
/** Any event verb, the last word of a subject. */
export type EventVerbWord = Lowercase<Suffixes<keyof typeof EventVerbValue, 'EVENT_VERB'>>;

/** The words of `values`' names after `<prefix>_`, in value order. */
function wordsOf<W extends string>(
  values: Record<string, string | number>,
  prefix: string,
  spell: (rest: string) => string,
): readonly W[] {
  return Object.entries(values)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0 && e[0].startsWith(`${prefix}_`))
    .sort((a, b) => a[1] - b[1])
    .map(([name]) => spell(name.slice(prefix.length + 1)) as W);
}

const lower = (s: string) => s.toLowerCase();
const asIs = (s: string) => s;

/** Node kinds, in proto order. */
export const NODE_KINDS: readonly NodeKind[] = wordsOf<NodeKind>(NodeKindValue, 'NODE_KIND', lower);
/** Edge kinds, in proto order. */
export const EDGE_KINDS: readonly EdgeKind[] = wordsOf<EdgeKind>(EdgeKindValue, 'EDGE_KIND', asIs);
/** Event kinds: the node kinds, then `officeholder` and `key`. */
export const EVENT_KIND_WORDS: readonly EventKind[] = [
  ...NODE_KINDS,
  ...wordsOf<EventKind>(EventKindValue, 'EVENT_KIND', lower),
];
/** Every event verb. */
export const EVENT_VERBS: readonly EventVerbWord[] = wordsOf<EventVerbWord>(EventVerbValue, 'EVENT_VERB', lower);

/** A node kind's word for its proto value (`NodeKind.NODE_KIND_REGION` → `region`); undefined for UNSPECIFIED or an unknown value. */
export function nodeKindWord(value: NodeKindValue): NodeKind | undefined {
  const name = value > 0 ? NodeKindValue[value] : undefined;
  return name === undefined ? undefined : (name.slice('NODE_KIND_'.length).toLowerCase() as NodeKind);
}

/** The proto value of a node kind's word. */
export function nodeKindValue(word: NodeKind): NodeKindValue {
  return NodeKindValue[`NODE_KIND_${word.toUpperCase()}` as keyof typeof NodeKindValue];
}

export const isNodeKind = (s: string): s is NodeKind => (NODE_KINDS as readonly string[]).includes(s);
export const isEdgeKind = (s: string): s is EdgeKind => (EDGE_KINDS as readonly string[]).includes(s);
export const isEventKind = (s: string): s is EventKind => (EVENT_KIND_WORDS as readonly string[]).includes(s);

/**
 * True when `s` starts as a node slug does: a node kind, a colon, and a key beginning with a
 * lowercase letter or digit (`contest:co-…`). What a cache reads to tell a slug from other text.
 */
export function isNodeSlug(s: string): boolean {
  const colon = s.indexOf(':');
  return colon > 0 && isNodeKind(s.slice(0, colon)) && /^[a-z0-9]/.test(s.slice(colon + 1));
}

/**
 * Specific event types (a subscriber's words beyond `<kind>.<verb>`), spelled out once here
 * because each holds a dot the enum names cannot; keyed by the proto value so the map is
 * complete whenever the enum grows.
 */
export const SPECIFIC_EVENT_TYPE_WORDS = {
  [SpecificEventTypeValue.SPECIFIC_EVENT_TYPE_CANDIDACY_FILING_STATUS_CHANGED]: 'candidacy.filing_status_changed',
  [SpecificEventTypeValue.SPECIFIC_EVENT_TYPE_RESULTS_CERTIFIED]: 'results.certified',
  [SpecificEventTypeValue.SPECIFIC_EVENT_TYPE_ELECTION_DATE_CHANGED]: 'election_date.changed',
} as const satisfies Record<
  Exclude<
    SpecificEventTypeValue,
    SpecificEventTypeValue.SPECIFIC_EVENT_TYPE_UNSPECIFIED | SpecificEventTypeValue.UNRECOGNIZED
  >,
  string
>;

/** A specific event type's word, e.g. `candidacy.filing_status_changed`. */
export type SpecificEventType = (typeof SPECIFIC_EVENT_TYPE_WORDS)[keyof typeof SPECIFIC_EVENT_TYPE_WORDS];
