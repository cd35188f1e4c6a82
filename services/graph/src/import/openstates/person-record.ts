import { isIsoDate } from '@civicgraph/kit';
import type { ContactLink, ContactOffice } from '../../model/nodes.js';

/** A role as the file writes it (type, district, jurisdiction, dates), or why it cannot be read. */
export type RoleEntry = Role | { reason: string };

export interface Role {
  type: string;
  /** Legislators' district (`'21'`, `Chittenden-1`); undefined for executives. */
  district?: string;
  jurisdiction: string;
  /** YYYY-MM-DD; undefined when the source gives none. */
  start?: string;
  end?: string;
}

export interface PartySpell {
  name: string;
  start?: string;
  end?: string;
}

/** The parts of an Open States person record this importer reads. */
export interface OpenStatesPerson {
  /** `ocd-person/<uuid>`. */
  id: string;
  uuid: string;
  name: string;
  givenName: string | null;
  familyName: string | null;
  birthday: string | null;
  gender: string | null;
  parties: PartySpell[];
  roles: RoleEntry[];
  /** External ids: `ocd-person`, each of `ids` (twitter, …), each `other_identifiers` scheme. */
  ids: Record<string, string[]>;
  offices: ContactOffice[];
  emails: string[];
  links: ContactLink[];
}

const OCD_PERSON = /^ocd-person\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Trimmed text; numbers as digits (`district: 21`); undefined for anything else or blank. */
const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/**
 * Checks a person record's shape: an `ocd-person/<uuid>` id and a name are required; each
 * role is read on its own, so one unreadable role does not cost the person the others.
 * Contact details are read as given (see `contact.ts` for which are kept).
 */
export function readPerson(value: Record<string, unknown>): OpenStatesPerson | { reason: string } {
  const id = text(value.id);
  const uuid = id === undefined ? undefined : OCD_PERSON.exec(id)?.[1];
  if (id === undefined || uuid === undefined)
    return { reason: `id ${JSON.stringify(value.id ?? null)} is not an ocd-person/<uuid> id` };
  const name = text(value.name);
  if (name === undefined) return { reason: 'no name' };
  if (!Array.isArray(value.roles) || value.roles.length === 0) return { reason: 'no roles' };
  const birthday = text(value.birth_date);
  return {
    id,
    uuid,
    name,
    givenName: text(value.given_name) ?? null,
    familyName: text(value.family_name) ?? null,
    birthday: birthday !== undefined && isIsoDate(birthday) ? birthday : null,
    gender: text(value.gender) ?? null,
    parties: list(value.party).flatMap(readParty),
    roles: value.roles.map(readRole),
    ids: readIds(id, value),
    offices: list(value.offices ?? value.contact_details).flatMap(readOffice),
    emails: [text(value.email)].filter((e): e is string => e !== undefined),
    links: list(value.links).flatMap(readLink),
  };
}

function readRole(raw: unknown): RoleEntry {
  if (!isObject(raw)) return { reason: 'not a mapping' };
  const type = text(raw.type);
  const jurisdiction = text(raw.jurisdiction);
  if (type === undefined) return { reason: 'no type' };
  if (jurisdiction === undefined) return { reason: `${type}: no jurisdiction` };
  const role: Role = { type, jurisdiction };
  for (const [field, key] of [
    ['start_date', 'start'],
    ['end_date', 'end'],
  ] as const) {
    const date = text(raw[field]);
    if (date === undefined) continue;
    if (!isIsoDate(date)) return { reason: `${type}: ${field} "${date}" is not a YYYY-MM-DD date` };
    role[key] = date;
  }
  if (role.start !== undefined && role.end !== undefined && role.end < role.start)
    return { reason: `${type}: end_date ${role.end} is before start_date ${role.start}` };
  const district = text(raw.district);
  if (district !== undefined) role.district = district;
  return role;
}

function readParty(raw: unknown): PartySpell[] {
  if (!isObject(raw)) return [];
  const name = text(raw.name);
  if (name === undefined) return [];
  const start = text(raw.start_date);
  const end = text(raw.end_date);
  return [
    {
      name,
      ...(start !== undefined && isIsoDate(start) ? { start } : {}),
      ...(end !== undefined && isIsoDate(end) ? { end } : {}),
    },
  ];
}

/** `ocd-person`, then `ids` (twitter, facebook, …) and `other_identifiers` by scheme, each a list without repeats; keys sorted. */
function readIds(id: string, value: Record<string, unknown>): Record<string, string[]> {
  const ids = new Map<string, string[]>([['ocd-person', [id]]]);
  const add = (scheme: string | undefined, v: string | undefined) => {
    if (scheme === undefined || v === undefined) return;
    const held = ids.get(scheme) ?? [];
    if (!held.includes(v)) ids.set(scheme, [...held, v]);
  };
  if (isObject(value.ids)) for (const [scheme, v] of Object.entries(value.ids)) add(scheme, text(v));
  for (const o of list(value.other_identifiers)) if (isObject(o)) add(text(o.scheme), text(o.identifier));
  return Object.fromEntries([...ids.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function readOffice(raw: unknown): ContactOffice[] {
  if (!isObject(raw)) return [];
  const office: ContactOffice = {
    kind: text(raw.classification) ?? text(raw.note) ?? '',
    address: text(raw.address) ?? null,
    voice: text(raw.voice) ?? null,
    fax: text(raw.fax) ?? null,
  };
  return office.address === null && office.voice === null && office.fax === null ? [] : [office];
}

function readLink(raw: unknown): ContactLink[] {
  if (!isObject(raw)) return [];
  const url = text(raw.url);
  return url === undefined ? [] : [{ url, note: text(raw.note) ?? '' }];
}
