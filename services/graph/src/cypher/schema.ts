import { ALL_CONTACT_FIELDS } from '@civicgraph/kit';
import { EDGE_ENDS, NODE_KINDS, type EdgeKind, type NodeKind } from '../model/kinds.js';
import type { CandidacyFields, EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { GraphReadView } from '../store/read-view.js';

/**
 * The graph as Cypher sees it: labels are node kinds (`Candidacy` for `candidacy`),
 * relationship types are edge kinds (`FOR_CONTEST`), and properties are the node's fields
 * under the names GraphQL gives them, plus `state` and `tier`, the scope every node carries.
 * One table per label says what each property is and how it is read; the schema endpoint,
 * the executor, the entitlement check and the test oracle all read this table.
 */

export type PropertyType = 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'DATE' | 'STRING[]' | 'JSON';

export interface PropertySpec {
  type: PropertyType;
  description: string;
  read: (node: NodeDoc) => unknown;
}

type Reader<K extends NodeKind> = (data: NodeDoc<K>['data'], node: NodeDoc<K>) => unknown;

function prop<K extends NodeKind>(type: PropertyType, description: string, read: Reader<K>): PropertySpec {
  return { type, description, read: (node) => read(node.data as NodeDoc<K>['data'], node as NodeDoc<K>) ?? null };
}

/** A candidacy field's held value (a candidacy's data are claims with confidences). */
function field(name: keyof CandidacyFields, type: PropertyType, description: string): PropertySpec {
  return prop<'candidacy'>(type, description, (d) => d.fields[name]?.value ?? (type === 'STRING[]' ? [] : null));
}

const SCOPE: Record<string, PropertySpec> = {
  slug: prop('STRING', 'Stable slug, `<kind>:<key>`.', (_d, n) => n.slug),
  state: prop('STRING', "Lowercase USPS code of the node's state; '' for national or none.", (_d, n) => n.state),
  tier: prop('STRING', "Jurisdiction tier (offices, contests, candidacies); '' when none applies.", (_d, n) => n.tier),
};

/** Properties per node kind, beyond slug, state and tier. */
const OWN: Record<NodeKind, Record<string, PropertySpec>> = {
  region: {
    name: prop<'region'>('STRING', 'Display name.', (d) => d.name),
    level: prop<'region'>(
      'STRING',
      'Level word, as REST writes it (`county`, `congressional-district`).',
      (d) => d.level,
    ),
    fips: prop<'region'>('STRING', 'Census FIPS/GEOID; null when none.', (d) => d.fips || null),
    ocdId: prop<'region'>('STRING', 'Open Civic Data division id; null when unknown.', (d) => d.ocdId || null),
    population: prop<'region'>('INT64', 'Resident population; null when unknown.', (d) => d.population),
  },
  election: {
    name: prop<'election'>('STRING', 'Display name.', (d) => d.name),
    date: prop<'election'>('DATE', 'Election day, YYYY-MM-DD.', (d) => d.date),
    type: prop<'election'>('STRING', 'general, primary, special, runoff, recall or retention.', (d) => d.type),
  },
  contest: {
    name: prop<'contest'>('STRING', 'Display name.', (d) => d.name),
    date: prop<'contest'>('DATE', 'Election day, YYYY-MM-DD; null while unknown.', (d) => d.date || null),
    year: prop<'contest'>('INT64', 'Election year.', (d) => d.year),
    type: prop<'contest'>('STRING', 'general, primary, special, runoff, recall or retention.', (d) => d.type),
    level: prop<'contest'>('STRING', 'Level word of its region.', (d) => d.level),
    seats: prop<'contest'>('INT64', 'Seats filled.', (d) => d.seats),
    special: prop<'contest'>('BOOLEAN', 'A special election.', (d) => d.special),
  },
  office: {
    name: prop<'office'>('STRING', 'e.g. `U.S. Representative`.', (d) => d.name),
    level: prop<'office'>('STRING', 'Level word of the region it serves.', (d) => d.level),
  },
  candidacy: {
    name: field('name', 'STRING', 'The name on the ballot.'),
    isIncumbent: field('isIncumbent', 'BOOLEAN', 'Whether the candidate holds the office.'),
    filingStatus: field('filingStatus', 'STRING', 'DECLARED, FILED, QUALIFIED, WITHDRAWN or DISQUALIFIED.'),
    ballotAccess: field('ballotAccess', 'STRING', 'PENDING, ON_BALLOT, WRITE_IN, DENIED or REMOVED.'),
    campaignWebsite: field('campaignWebsite', 'STRING', 'Campaign website.'),
    campaignEmails: field('campaignEmails', 'STRING[]', 'Campaign emails (contact entitlement).'),
    campaignPhones: field('campaignPhones', 'STRING[]', 'Campaign phones (contact entitlement).'),
    campaignTeam: field('campaignTeam', 'JSON', 'Campaign team contacts (contact entitlement).'),
    confidence: prop<'candidacy'>('DOUBLE', '0..1, how sure we are (see the README).', (d) => d.confidence),
  },
  person: {
    name: prop<'person'>('STRING', 'Full name.', (d) => d.name),
    givenName: prop<'person'>('STRING', 'Given name; null when unknown.', (d) => d.givenName),
    familyName: prop<'person'>('STRING', 'Family name; null when unknown.', (d) => d.familyName),
    birthday: prop<'person'>('DATE', 'YYYY-MM-DD; null when unknown.', (d) => d.birthday),
    gender: prop<'person'>('STRING', 'As the source states it; null when unknown.', (d) => d.gender),
    contactOffices: prop<'person'>(
      'JSON',
      'Officeholder offices (contact entitlement).',
      (d) => d.contactOffices ?? [],
    ),
    contactEmails: prop<'person'>(
      'STRING[]',
      'Officeholder emails (contact entitlement).',
      (d) => d.contactEmails ?? [],
    ),
    contactLinks: prop<'person'>('JSON', 'Officeholder links (contact entitlement).', (d) => d.contactLinks ?? []),
  },
  party: {
    name: prop<'party'>('STRING', 'Party name.', (d) => d.name),
    abbreviation: prop<'party'>('STRING', 'Short code, e.g. `DEM`; null when none.', (d) => d.abbreviation || null),
  },
  position: {
    issue: prop<'position'>('STRING', 'The issue.', (d) => d.issue),
    stance: prop<'position'>('STRING', 'The stance taken.', (d) => d.stance),
    summary: prop<'position'>('STRING', 'A summary; null when none.', (d) => d.summary || null),
  },
  provenance: {
    source: prop<'provenance'>('STRING', 'Source name.', (d) => d.source),
    url: prop<'provenance'>('STRING', 'Where the source is; null when none.', (d) => d.url || null),
    publisher: prop<'provenance'>('STRING', 'Publisher; null when none.', (d) => d.publisher || null),
    licence: prop<'provenance'>('STRING', 'Licence; null when none.', (d) => d.licence || null),
    retrievedAt: prop<'provenance'>('STRING', 'When the source was read (RFC 3339).', (d) => d.retrievedAt || null),
    method: prop<'provenance'>('STRING', 'official-filing, import, scrape, manual or synthetic.', (d) => d.method),
  },
  result: {
    choice: prop<'result'>('STRING', 'The choice as the source writes it.', (d) => d.choice),
    party: prop<'result'>('STRING', "The party as the source writes it; '' when none.", (d) => d.party),
    votes: prop<'result'>('INT64', 'Votes counted.', (d) => d.votes),
    share: prop<'result'>('DOUBLE', 'votes / totalVotes; null when the total is unknown.', (d) => d.share),
    totalVotes: prop<'result'>('INT64', 'Votes cast in the contest; null when unknown.', (d) => d.totalVotes),
    certified: prop<'result'>('BOOLEAN', 'Certified by the source.', (d) => d.certified),
    winner: prop<'result'>('BOOLEAN', 'Won a seat; null when the source does not say.', (d) => d.winner),
  },
};

/** `candidacy` → `Candidacy`. */
export function labelOf(kind: NodeKind): string {
  return kind[0]!.toUpperCase() + kind.slice(1);
}

const KIND_BY_LABEL = new Map(NODE_KINDS.map((k) => [labelOf(k), k]));

/** The node kind a label names, or undefined (a label no node carries). */
export function kindOfLabel(label: string): NodeKind | undefined {
  return KIND_BY_LABEL.get(label);
}

/** The properties of a node kind, scope first. */
export function propertiesOf(kind: NodeKind): Readonly<Record<string, PropertySpec>> {
  return { ...SCOPE, ...OWN[kind] };
}

/** Per kind, per name: maps, so a read is two hashed lookups whatever the key. */
const PROPERTIES = new Map(NODE_KINDS.map((k) => [k, new Map(Object.entries(propertiesOf(k)))]));

/** A node's property, null when the kind has no such property (as Cypher answers a missing one). */
export function nodeProperty(node: NodeDoc, key: string): unknown {
  return PROPERTIES.get(node.kind)?.get(key)?.read(node) ?? null;
}

/**
 * A node's property as read on a read view (store/read-view.ts): its scope from the view's
 * columns, so a query filtering or grouping by state never loads the documents; anything
 * else from its document.
 */
export function viewNodeProperty(view: GraphReadView, id: number, key: string): unknown {
  if (key === 'state') return view.states[view.stateOf[id]!] ?? null;
  if (key === 'tier') return view.tiers[view.tierOf[id]!] ?? null;
  return nodeProperty(view.docs[id]!, key);
}

/** Properties some label types DOUBLE (`share`, `confidence`): arithmetic on them is float arithmetic. */
export const DOUBLE_PROPERTIES: ReadonlySet<string> = new Set(
  NODE_KINDS.flatMap((k) =>
    Object.entries(propertiesOf(k))
      .filter(([, p]) => p.type === 'DOUBLE')
      .map(([name]) => name),
  ),
);

/** Contact properties, on whatever label: only keys with `contact` may name or see them. */
export const CONTACT_PROPERTIES: ReadonlySet<string> = new Set(ALL_CONTACT_FIELDS);

/** A relationship's property: its type's data (HOLDS: start, end…), null when absent. */
export function relProperty(edge: EdgeDoc, key: string): unknown {
  return edge.data[key] ?? null;
}

/** What GET /v1/cypher/schema answers, and the README documents. */
export function cypherSchema(): {
  labels: {
    label: string;
    properties: { name: string; type: PropertyType; description: string; contact: boolean }[];
  }[];
  relationships: { type: EdgeKind; from: string[]; to: string[] }[];
} {
  return {
    labels: NODE_KINDS.map((k) => ({
      label: labelOf(k),
      properties: Object.entries(propertiesOf(k)).map(([name, p]) => ({
        name,
        type: p.type,
        description: p.description,
        contact: CONTACT_PROPERTIES.has(name),
      })),
    })),
    relationships: (
      Object.entries(EDGE_ENDS) as [EdgeKind, { from: readonly NodeKind[]; to: readonly NodeKind[] }][]
    ).map(([type, ends]) => ({ type, from: ends.from.map(labelOf), to: ends.to.map(labelOf) })),
  };
}
