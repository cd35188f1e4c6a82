import type { FieldChange, Node, Officeholder } from '@civicgraph/protos/civic/events/v1/events';
import { isNodeKind, nodeKindWord } from '../vocabulary-words.js';
import { environmentOfWord, eventTypes, type CivicEvent, type EventKind } from './catalogue.js';
import { nodeFromView, officeholderFromView, type NodeView, type OfficeholderView } from './event-objects.js';

const SUBJECT = /^civic\.[a-z0-9_-]+\.[a-z_]+\.[a-z_]+$/;

/** An envelope as older releases wrote it (JSON text inside), still found in outboxes and streams. */
interface LegacyFields {
  nodeJson?: unknown;
  changes?: { field?: unknown; before?: unknown; after?: unknown; beforeJson?: unknown; afterJson?: unknown }[];
}

const bad = (f: string): never => {
  throw new TypeError(`event field "${f}" is missing or malformed`);
};

/**
 * Validates a decoded envelope and returns it as the current contract types it; throws
 * naming the first bad field. Events written before a field existed (still in an outbox or
 * a stream) get it derived, and the JSON-text form (`nodeJson`, `beforeJson`/`afterJson`)
 * is read into the typed fields, so an upgrade loses nothing.
 */
export function parseEvent(raw: unknown): CivicEvent {
  const o = raw as (Partial<Omit<CivicEvent, 'changes'>> & LegacyFields) | null;
  if (typeof o !== 'object' || o === null) return bad('(root)');
  if (typeof o.id !== 'string' || o.id === '') bad('id');
  if (typeof o.subject !== 'string' || !SUBJECT.test(o.subject)) bad('subject');
  if (typeof o.occurredAt !== 'string') bad('occurredAt');
  if (!isStrings(o.slugs)) bad('slugs');
  if (!isStrings(o.changedFields)) bad('changedFields');
  if (typeof o.version !== 'string') bad('version');
  const [, word, kind, verb] = o.subject!.split('.') as [string, string, EventKind, string];
  const types = isStrings(o.types) && o.types.length > 0 ? o.types : eventTypes(kind, verb, o.changedFields!);
  return {
    id: o.id!,
    subject: o.subject!,
    occurredAt: o.occurredAt!,
    slugs: o.slugs!,
    changedFields: o.changedFields!,
    version: o.version!,
    type: typeof o.type === 'string' && o.type !== '' ? o.type : types[0]!,
    types,
    environment: o.environment === 'live' || o.environment === 'test' ? o.environment : environmentOfWord(word),
    changes: changesOf(o.changes),
    // Events stored before the change feed was numbered carry none: 0, "not stamped".
    seq: typeof o.seq === 'string' && /^\d+$/.test(o.seq) ? o.seq : '0',
    ...objectOf(kind, o),
  };
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function changesOf(changes: LegacyFields['changes']): FieldChange[] {
  if (changes === undefined) return [];
  if (!Array.isArray(changes)) return bad('changes');
  return changes.map((c, i) => {
    if (typeof c?.field !== 'string') bad(`changes[${i}].field`);
    return { field: c.field as string, before: valueOf(c, 'before', i), after: valueOf(c, 'after', i) };
  });
}

/** A change's value: typed, or JSON text in the legacy `<side>Json` field; never undefined. */
function valueOf(c: NonNullable<LegacyFields['changes']>[number], side: 'before' | 'after', i: number): unknown {
  const legacy = c[`${side}Json`];
  if (c[side] === undefined && legacy !== undefined) {
    if (typeof legacy !== 'string') return bad(`changes[${i}].${side}Json`);
    return parseJson(legacy, `changes[${i}].${side}Json`);
  }
  return c[side] === undefined ? null : c[side];
}

/** The topic's object: `node` for a node kind, `officeholder` for officeholder events, nothing else. */
function objectOf(
  kind: EventKind,
  o: { node?: unknown; officeholder?: unknown; nodeJson?: unknown },
): { node?: Node; officeholder?: Officeholder } {
  let { node, officeholder } = o;
  if (node === undefined && officeholder === undefined && o.nodeJson !== undefined && o.nodeJson !== '') {
    if (typeof o.nodeJson !== 'string') return bad('nodeJson');
    const view = parseJson(o.nodeJson, 'nodeJson');
    if (kind === 'officeholder') officeholder = officeholderFromView(view as OfficeholderView);
    else node = nodeFromView(view as NodeView);
  }
  if (node !== undefined && node !== null) {
    if (!isNodeKind(kind)) bad('node');
    return { node: checkedNode(node) };
  }
  if (officeholder !== undefined && officeholder !== null) {
    if (kind !== 'officeholder') bad('officeholder');
    return { officeholder: checkedOfficeholder(officeholder) };
  }
  return {};
}

function checkedNode(n: unknown): Node {
  const node = n as Partial<Node>;
  if (typeof node !== 'object') bad('node');
  if (typeof node.slug !== 'string') bad('node.slug');
  if (typeof node.kind !== 'number' || nodeKindWord(node.kind) === undefined) bad('node.kind');
  if (typeof node.state !== 'string') bad('node.state');
  if (typeof node.tier !== 'string') bad('node.tier');
  if (typeof node.rev !== 'number') bad('node.rev');
  if (typeof node.updatedAt !== 'string') bad('node.updatedAt');
  if (node.data !== undefined && (typeof node.data !== 'object' || node.data === null)) bad('node.data');
  return node as Node;
}

function checkedOfficeholder(v: unknown): Officeholder {
  const o = v as Partial<Officeholder>;
  if (typeof o !== 'object') bad('officeholder');
  if (typeof o.state !== 'string') bad('officeholder.state');
  if (typeof o.tier !== 'string') bad('officeholder.tier');
  if (typeof o.person?.slug !== 'string') bad('officeholder.person');
  if (typeof o.office?.slug !== 'string') bad('officeholder.office');
  if (typeof o.term !== 'string') bad('officeholder.term');
  return o as Officeholder;
}

function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return bad(field);
  }
}
