import type { Event, FieldChange, Officeholder } from '@civicgraph/protos/civic/events/v1/events';
import { randomBase62 } from '../base62.js';
import {
  NODE_KINDS,
  SPECIFIC_EVENT_TYPE_WORDS,
  type EventKind,
  type EventVerbWord,
  type NodeKind,
  type SpecificEventType,
} from '../vocabulary-words.js';
import { jsonValue, nodeFromView, type NodeView } from './event-objects.js';

export type { EventKind, SpecificEventType } from '../vocabulary-words.js';

/*
 * The typed event catalogue: every kind and verb the bus carries, and what each topic's
 * events carry, in one place. Subject: `civic.<env>.<kind>.<verb>`; the envelope is
 * civic.events.v1.Event. The kinds come from civic.vocabulary.v1 (vocabulary-words.ts).
 */

const NODE_VERBS = ['created', 'updated', 'deleted'] as const satisfies readonly EventVerbWord[];

/** The verbs of the event kinds that are not node kinds; one entry each, or this fails to compile. */
const OTHER_VERBS = {
  // A HOLDS term (person → office) begun, ended or corrected: who holds an office changed.
  officeholder: ['changed'],
  // API key lifecycle (auth service): not data, never delivered to webhooks; every gateway
  // listens so a revoked key stops working everywhere at once. The slug is the key id.
  key: ['revoked', 'rotated'],
} as const satisfies Record<Exclude<EventKind, NodeKind>, readonly EventVerbWord[]>;

type VerbsByKind = {
  readonly [K in EventKind]: K extends NodeKind
    ? typeof NODE_VERBS
    : (typeof OTHER_VERBS)[K & keyof typeof OTHER_VERBS];
};

/** Every event kind with its verbs: each node kind (created, updated, deleted), then officeholder and key. */
export const EVENT_KINDS: VerbsByKind = Object.freeze({
  ...Object.fromEntries(NODE_KINDS.map((k) => [k, NODE_VERBS])),
  ...OTHER_VERBS,
}) as VerbsByKind;

/** Event kinds that describe election data (what caches and webhooks care about). */
export const DATA_EVENT_KINDS: ReadonlySet<EventKind> = new Set(
  (Object.keys(EVENT_KINDS) as EventKind[]).filter((k) => k !== 'key'),
);

export type EventVerb<K extends EventKind = EventKind> = VerbsByKind[K][number];

/**
 * The event envelope: civic.events.v1.Event, the one contract (protos/civic/events/v1).
 * `id` doubles as the `Nats-Msg-Id` header; `subject` is `civic.<env>.<kind>.<verb>`.
 * Its object is typed per topic: `node` on a node kind's events, `officeholder` on
 * officeholder events, neither on key events (see EventObject).
 */
export type CivicEvent = Event;

/** The types subscribers see beyond `<kind>.<verb>`, in proto order. */
export const SPECIFIC_EVENT_TYPES: readonly SpecificEventType[] = Object.values(SPECIFIC_EVENT_TYPE_WORDS);

/** Every type an event of `kind`/`verb` changing `fields` is an instance of, most specific first. */
export function eventTypes(kind: EventKind, verb: string, fields: readonly string[]): string[] {
  const types: string[] = [];
  const specific = (t: SpecificEventType) => types.push(t);
  if (kind === 'candidacy' && verb === 'updated' && fields.includes('filingStatus'))
    specific('candidacy.filing_status_changed');
  if (kind === 'result' && verb !== 'deleted') specific('results.certified');
  if (kind === 'election' && verb === 'updated' && fields.includes('date')) specific('election_date.changed');
  types.push(`${kind}.${verb}`);
  return types;
}

/** Every type a subscription may name: the specific types, then each kind's verbs. Key events are not data and never delivered. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [
  ...SPECIFIC_EVENT_TYPES,
  ...(Object.entries(EVENT_KINDS) as [EventKind, readonly string[]][])
    .filter(([k]) => k !== 'key')
    .flatMap(([k, verbs]) => verbs.map((v) => `${k}.${v}`)),
];

export function subjectFor<K extends EventKind>(env: string, kind: K, verb: EventVerb<K>): string {
  return `civic.${env}.${kind}.${verb}`;
}

/**
 * What an event of kind K carries about its object, as its publisher gives it: the payload
 * type of each topic. A node kind's events may carry the node (absent for a deletion or a
 * boundary reload), an officeholder event the officeholder; a key event carries nothing.
 */
export type EventObject<K extends EventKind> = K extends NodeKind
  ? { node?: NodeView; officeholder?: never }
  : K extends 'officeholder'
    ? { node?: never; officeholder?: Officeholder }
    : { node?: never; officeholder?: never };

interface NewEventFields<K extends EventKind> {
  env: string;
  kind: K;
  verb: EventVerb<K>;
  slugs: string[];
  changedFields?: string[];
  version: string;
  now?: Date;
  /** Changed fields with their values before and after (JSON values; undefined is null). */
  changes?: { field: string; before: unknown; after: unknown }[];
}

/** What a publisher gives {@link makeEvent}: the envelope's fields and its topic's object. */
export type NewEvent<K extends EventKind> = NewEventFields<K> & EventObject<K>;

/** The kind and verb of an event, from its subject `civic.<env>.<kind>.<verb>`. */
export function topicOf(event: Pick<CivicEvent, 'subject'>): { kind: EventKind; verb: string } {
  const [, , kind, verb] = event.subject.split('.');
  return { kind: kind as EventKind, verb: verb ?? '' };
}

/** Whether an event is about election data (not a key): what caches derived from the data must follow. */
export function isDataEvent(event: Pick<CivicEvent, 'subject'>): boolean {
  return DATA_EVENT_KINDS.has(topicOf(event).kind);
}

/** `test` or `live` from a subject's environment word (tests use other words: their data is sandbox data). */
export function environmentOfWord(word: string): 'test' | 'live' {
  return word === 'live' ? 'live' : 'test';
}

/** Builds a catalogue event with a fresh id. */
export function makeEvent<K extends EventKind>(e: NewEvent<K>): CivicEvent {
  const changedFields = e.changedFields ?? [];
  const types = eventTypes(e.kind, e.verb, changedFields);
  return {
    id: `evt_${randomBase62(24)}`,
    subject: subjectFor(e.env, e.kind, e.verb),
    occurredAt: (e.now ?? new Date()).toISOString(),
    slugs: e.slugs,
    changedFields,
    version: e.version,
    type: types[0]!,
    types,
    environment: environmentOfWord(e.env),
    // Given by the outbox relay as it publishes (the store numbers events at commit).
    seq: '0',
    changes: (e.changes ?? []).map((c): FieldChange => ({
      field: c.field,
      before: jsonValue(c.before),
      after: jsonValue(c.after),
    })),
    node: e.node === undefined ? undefined : nodeFromView(e.node),
    officeholder:
      e.officeholder === undefined
        ? undefined
        : { ...e.officeholder, contact: jsonValue(e.officeholder.contact ?? {}) as Officeholder['contact'] },
  };
}
