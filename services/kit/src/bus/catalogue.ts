import type { Event } from '@civicgraph/protos/civic/events/v1/events';
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
}

/** Builds a catalogue event with a fresh id. */
export function makeEvent<K extends EventKind>(e: NewEvent<K>): CivicEvent {
  return {
    id: `evt_${randomBase62(24)}`,
    subject: subjectFor(e.env, e.kind, e.verb),
    occurredAt: (e.now ?? new Date()).toISOString(),
    slugs: e.slugs,
    changedFields: e.changedFields ?? [],
    version: e.version,
  };
}

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
  return o as CivicEvent;
}
