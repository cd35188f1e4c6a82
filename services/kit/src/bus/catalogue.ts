import type { Event, FieldChange } from '@civicgraph/protos/civic/events/v1/events';
import { randomBase62 } from '../base62.js';

/**
 * The typed event catalogue: every kind and verb the bus carries, in one place.
 * Subject: `civic.<env>.<kind>.<verb>`; the envelope mirrors civic.events.v1.Event.
 */
export const EVENT_KINDS = {
  // One entry per graph node kind (services/graph/src/model/kinds.ts): a node's event
  // kind is its node kind. Listed here, not imported, because the kit sits below graph.
  region: ['created', 'updated', 'deleted'],
  election: ['created', 'updated', 'deleted'],
  contest: ['created', 'updated', 'deleted'],
  office: ['created', 'updated', 'deleted'],
  candidacy: ['created', 'updated', 'deleted'],
  person: ['created', 'updated', 'deleted'],
  party: ['created', 'updated', 'deleted'],
  position: ['created', 'updated', 'deleted'],
  provenance: ['created', 'updated', 'deleted'],
  result: ['created', 'updated', 'deleted'],
  // A HOLDS term (person → office) begun, ended or corrected: who holds an office changed.
  // Its own subject, not a kind of person event, so subscribers and caches see the office
  // and the person it is about (slugs [office, person]) whichever end was new.
  officeholder: ['changed'],
  // API key lifecycle (auth service): not data, never delivered to webhooks; every gateway
  // listens so a revoked key stops working everywhere at once. The slug is the key id.
  key: ['revoked', 'rotated'],
} as const;

/** Event kinds that describe election data (what caches and webhooks care about). */
export const DATA_EVENT_KINDS: ReadonlySet<EventKind> = new Set(
  (Object.keys(EVENT_KINDS) as EventKind[]).filter((k) => k !== 'key'),
);

export type EventKind = keyof typeof EVENT_KINDS;
export type EventVerb<K extends EventKind = EventKind> = (typeof EVENT_KINDS)[K][number];

/**
 * The event envelope: civic.events.v1.Event, the one contract (protos/civic/events/v1).
 * `id` doubles as the `Nats-Msg-Id` header; `subject` is `civic.<env>.<kind>.<verb>`.
 */
export type CivicEvent = Event;

/**
 * The types subscribers see, beyond `<kind>.<verb>`: each is derived from what changed, and
 * an event is an instance of every type that applies (most specific first).
 * (`officeholder.changed` is a kind and verb of its own, above.)
 */
export const SPECIFIC_EVENT_TYPES = {
  'candidacy.filing_status_changed': 'a candidacy\'s filing status changed',
  'results.certified': 'certified results for a contest were recorded or corrected',
  'election_date.changed': 'an election\'s date changed',
} as const;

export type SpecificEventType = keyof typeof SPECIFIC_EVENT_TYPES;

/** Every type an event of `kind`/`verb` changing `fields` is an instance of, most specific first. */
export function eventTypes(kind: EventKind, verb: string, fields: readonly string[]): string[] {
  const types: string[] = [];
  if (kind === 'candidacy' && verb === 'updated' && fields.includes('filingStatus')) types.push('candidacy.filing_status_changed');
  if (kind === 'result' && verb !== 'deleted') types.push('results.certified');
  if (kind === 'election' && verb === 'updated' && fields.includes('date')) types.push('election_date.changed');
  types.push(`${kind}.${verb}`);
  return types;
}

/** Every type a subscription may name: each kind's verbs and the specific types. Key events are not data and never delivered. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [
  ...Object.keys(SPECIFIC_EVENT_TYPES),
  ...(Object.entries(EVENT_KINDS) as [EventKind, readonly string[]][]).filter(([k]) => k !== 'key').flatMap(([k, verbs]) => verbs.map((v) => `${k}.${v}`)),
];

export function subjectFor<K extends EventKind>(env: string, kind: K, verb: EventVerb<K>): string {
  return `civic.${env}.${kind}.${verb}`;
}

export interface NewEvent<K extends EventKind> {
  env: string;
  kind: K;
  verb: EventVerb<K>;
  slugs: string[];
  changedFields?: string[];
  version: string;
  now?: Date;
  /** Changed fields with their values before and after (JSON-serialisable). */
  changes?: { field: string; before: unknown; after: unknown }[];
  /** The node after the change. */
  node?: unknown;
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
    changes: (e.changes ?? []).map((c): FieldChange => ({ field: c.field, beforeJson: json(c.before), afterJson: json(c.after) })),
    nodeJson: e.node === undefined ? '' : JSON.stringify(e.node),
  };
}

const json = (v: unknown): string => JSON.stringify(v === undefined ? null : v);

const SUBJECT = /^civic\.[a-z0-9_-]+\.[a-z_]+\.[a-z_]+$/;

/** Validates a decoded wire payload; throws naming the first bad field. */
export function parseEvent(raw: unknown): CivicEvent {
  const o = raw as Partial<CivicEvent> | null;
  const bad = (f: string): never => {
    throw new TypeError(`event field "${f}" is missing or malformed`);
  };
  if (typeof o !== 'object' || o === null) return bad('(root)');
  if (typeof o.id !== 'string' || o.id === '') bad('id');
  if (typeof o.subject !== 'string' || !SUBJECT.test(o.subject)) bad('subject');
  if (typeof o.occurredAt !== 'string') bad('occurredAt');
  if (!Array.isArray(o.slugs) || !o.slugs.every((s) => typeof s === 'string')) bad('slugs');
  if (!Array.isArray(o.changedFields)) bad('changedFields');
  if (typeof o.version !== 'string') bad('version');
  // Events written before these fields existed (still in an outbox or a stream) get them derived.
  const [, word, kind, verb] = o.subject!.split('.') as [string, string, EventKind, string];
  const types = Array.isArray(o.types) && o.types.every((t) => typeof t === 'string') && o.types.length > 0 ? o.types : eventTypes(kind, verb, o.changedFields as string[]);
  if (o.changes !== undefined && !(Array.isArray(o.changes) && o.changes.every((c) => typeof c?.field === 'string' && typeof c.beforeJson === 'string' && typeof c.afterJson === 'string'))) bad('changes');
  if (o.nodeJson !== undefined && typeof o.nodeJson !== 'string') bad('nodeJson');
  return {
    ...(o as CivicEvent),
    type: typeof o.type === 'string' && o.type !== '' ? o.type : types[0]!,
    types,
    environment: o.environment === 'live' || o.environment === 'test' ? o.environment : environmentOfWord(word),
    changes: o.changes ?? [],
    nodeJson: o.nodeJson ?? '',
  };
}
