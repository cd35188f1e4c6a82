import type { Node, Officeholder } from '@civicgraph/protos/civic/events/v1/events';
import { nodeKindValue, nodeKindWord, type NodeKind } from '../vocabulary-words.js';

/**
 * An event's object as the API shows it, and as publishers hand it over: kit turns it into
 * the typed messages of civic.events.v1 (Node, Officeholder) and back, so a consumer
 * rendering JSON (the webhook dispatcher) gets exactly what the object was.
 */

/** A graph node as the API shows it: its document without store bookkeeping beyond rev. */
export interface NodeView {
  slug: string;
  kind: NodeKind;
  state: string;
  tier: string;
  rev: number;
  updatedAt: string;
  /** The node's data; JSON values only (anything else is lost as JSON.stringify loses it). */
  data: object;
}

/** An officeholder as the API shows it: `data` holds the person, office, term and the person's contact fields. */
export interface OfficeholderView {
  kind: 'officeholder';
  state: string;
  tier: string;
  data: {
    person: { slug: string; name: string };
    office: { slug: string; name: string; level: string; region: string };
    term: string;
    start: string | null;
    end: string | null;
    party: string | null;
  } & Record<string, unknown>;
}

/** `v` as JSON would carry it: undefined becomes null, dates strings, undefined members vanish. */
export function jsonValue(v: unknown): unknown {
  return v === undefined ? null : JSON.parse(JSON.stringify(v));
}

export function nodeFromView(view: NodeView): Node {
  return {
    slug: view.slug,
    kind: nodeKindValue(view.kind),
    state: view.state,
    tier: view.tier,
    rev: view.rev,
    updatedAt: view.updatedAt,
    data: jsonValue(view.data) as Node['data'],
  };
}

export function nodeView(node: Node): NodeView {
  const kind = nodeKindWord(node.kind);
  if (kind === undefined) throw new TypeError(`event field "node.kind" is not a node kind: ${node.kind}`);
  return {
    slug: node.slug,
    kind,
    state: node.state,
    tier: node.tier,
    rev: node.rev,
    updatedAt: node.updatedAt,
    data: node.data ?? {},
  };
}

export function officeholderFromView(view: OfficeholderView): Officeholder {
  const { person, office, term, start, end, party, ...contact } = view.data;
  return {
    state: view.state,
    tier: view.tier,
    person: { slug: person.slug, name: person.name },
    office: { slug: office.slug, name: office.name, level: office.level, region: office.region },
    term,
    start: start ?? undefined,
    end: end ?? undefined,
    party: party ?? undefined,
    contact: jsonValue(contact) as Officeholder['contact'],
  };
}

export function officeholderView(o: Officeholder): OfficeholderView {
  return {
    kind: 'officeholder',
    state: o.state,
    tier: o.tier,
    data: {
      person: { slug: o.person?.slug ?? '', name: o.person?.name ?? '' },
      office: {
        slug: o.office?.slug ?? '',
        name: o.office?.name ?? '',
        level: o.office?.level ?? '',
        region: o.office?.region ?? '',
      },
      term: o.term,
      start: o.start ?? null,
      end: o.end ?? null,
      party: o.party ?? null,
      ...o.contact,
    },
  };
}

/** The object an event carries, as the API shows it; undefined when it carries none. */
export function eventObjectView(event: {
  node?: Node | undefined;
  officeholder?: Officeholder | undefined;
}): NodeView | OfficeholderView | undefined {
  if (event.node !== undefined) return nodeView(event.node);
  if (event.officeholder !== undefined) return officeholderView(event.officeholder);
  return undefined;
}
