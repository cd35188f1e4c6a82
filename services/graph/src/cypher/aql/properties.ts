import { aql, literal, type AqlQuery } from 'arangojs/aql';
import type { NodeKind } from '../../model/kinds.js';
import type { NodeDoc } from '../../model/nodes.js';
import { propertiesOf } from '../schema.js';

/**
 * Where each Cypher property of each label lives in a stored node document
 * (store/arango/arango-documents.ts keeps the model's NodeDoc as it is), and how the
 * schema's reader (cypher/schema.ts) turns it into the property's value. The schema's
 * readers are JavaScript functions; this table says the same thing as data, so the AQL
 * compiler can write it as fixed attribute paths and the unit test can check, node by node
 * on the demo graph, that the table reads what the readers read (properties.test.ts).
 * Property keys reach AQL only through this table: a key no label has is null, as the
 * evaluator answers it, and is never written into the query.
 */
export interface Access {
  /** Attribute names from the document's root. */
  path: readonly string[];
  /** The reader writes `value || null`: an empty string is null. */
  blank?: true;
  /** The reader writes `value ?? []`: a missing list is empty. */
  orEmpty?: true;
}

const at = (...path: string[]): Access => ({ path });
const blank = (...path: string[]): Access => ({ path, blank: true });
const orEmpty = (...path: string[]): Access => ({ path, orEmpty: true });
const field = (name: string): Access => at('data', 'fields', name, 'value');

const SCOPE: Record<string, Access> = { slug: at('slug'), state: at('state'), tier: at('tier') };

const OWN: Record<NodeKind, Record<string, Access>> = {
  region: {
    name: at('data', 'name'),
    level: at('data', 'level'),
    fips: blank('data', 'fips'),
    ocdId: blank('data', 'ocdId'),
    population: at('data', 'population'),
  },
  election: { name: at('data', 'name'), date: at('data', 'date'), type: at('data', 'type') },
  contest: {
    name: at('data', 'name'),
    date: blank('data', 'date'),
    year: at('data', 'year'),
    type: at('data', 'type'),
    level: at('data', 'level'),
    seats: at('data', 'seats'),
    special: at('data', 'special'),
  },
  office: { name: at('data', 'name'), level: at('data', 'level') },
  candidacy: {
    name: field('name'),
    isIncumbent: field('isIncumbent'),
    filingStatus: field('filingStatus'),
    ballotAccess: field('ballotAccess'),
    campaignWebsite: field('campaignWebsite'),
    campaignEmails: { ...field('campaignEmails'), orEmpty: true },
    campaignPhones: { ...field('campaignPhones'), orEmpty: true },
    campaignTeam: field('campaignTeam'),
    confidence: at('data', 'confidence'),
  },
  person: {
    name: at('data', 'name'),
    givenName: at('data', 'givenName'),
    familyName: at('data', 'familyName'),
    birthday: at('data', 'birthday'),
    gender: at('data', 'gender'),
    contactOffices: orEmpty('data', 'contactOffices'),
    contactEmails: orEmpty('data', 'contactEmails'),
    contactLinks: orEmpty('data', 'contactLinks'),
  },
  party: { name: at('data', 'name'), abbreviation: blank('data', 'abbreviation') },
  position: { issue: at('data', 'issue'), stance: at('data', 'stance'), summary: blank('data', 'summary') },
  provenance: {
    source: at('data', 'source'),
    url: blank('data', 'url'),
    publisher: blank('data', 'publisher'),
    licence: blank('data', 'licence'),
    retrievedAt: blank('data', 'retrievedAt'),
    method: at('data', 'method'),
  },
  result: {
    choice: at('data', 'choice'),
    party: at('data', 'party'),
    votes: at('data', 'votes'),
    share: at('data', 'share'),
    totalVotes: at('data', 'totalVotes'),
    certified: at('data', 'certified'),
    winner: at('data', 'winner'),
  },
};

/** How a kind's property is read, or undefined when the kind has no such property. */
export function accessOf(kind: NodeKind, key: string): Access | undefined {
  return Object.hasOwn(SCOPE, key) ? SCOPE[key] : Object.hasOwn(OWN[kind], key) ? OWN[kind][key] : undefined;
}

/** Every property the table knows for a kind (the test checks it is the schema's list). */
export function accessKeys(kind: NodeKind): string[] {
  return [...Object.keys(SCOPE), ...Object.keys(OWN[kind])];
}

/**
 * The AQL reading a property of the node held by the variable `node`. The path is fixed
 * text from the table above (identifiers only, which the test checks); an attribute
 * missing anywhere along it is null in AQL, as `?.`/`??` make it in the readers.
 */
export function accessAql(node: AqlQuery, access: Access): AqlQuery {
  const value = aql`${node}${literal(access.path.map((p) => `.${p}`).join(''))}`;
  if (access.blank) return aql`((IS_STRING(${value}) AND LENGTH(${value}) == 0) ? null : ${value})`;
  if (access.orEmpty) return aql`NOT_NULL(${value}, [])`;
  return value;
}

/** The same reading in JavaScript: what the test holds against the schema's readers. */
export function readAccess(node: NodeDoc, access: Access): unknown {
  let v: unknown = node;
  for (const p of access.path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  if (v === undefined) v = null;
  if (access.blank && v === '') return null;
  if (access.orEmpty && v === null) return [];
  return v;
}

/** Whether the table covers exactly the schema's properties of a kind. */
export function coversSchema(kind: NodeKind): boolean {
  const schema = Object.keys(propertiesOf(kind)).sort();
  const table = accessKeys(kind).sort();
  return schema.length === table.length && schema.every((k, i) => k === table[i]);
}
