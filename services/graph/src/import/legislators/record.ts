import { isIsoDate } from '@civicgraph/kit';

/** A congress-legislators term, as the file writes it. */
export interface Term {
  type: string;
  start: string;
  end: string;
  state?: string;
  district?: number;
  class?: number;
  party?: string;
  how?: string;
}

/** The parts of a congress-legislators record this importer reads. */
export interface LegislatorRecord {
  ids: Record<string, string[]>;
  /** The id the person is keyed by: bioguide, or govtrack for presidents who never sat in Congress. */
  key: { scheme: 'bioguide' | 'govtrack'; id: string };
  name: { first: string; last: string; middle?: string; suffix?: string; nickname?: string; officialFull?: string };
  birthday: string | null;
  gender: string | null;
  terms: Term[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/**
 * Checks a record's shape: an id to key the person by, a name, a list of terms each with a type and
 * ISO start and end dates. A reason when the record cannot be used; details of a term
 * (state, district, class) are checked where the term is used.
 */
export function readRecord(value: unknown): LegislatorRecord | { reason: string } {
  if (!isObject(value)) return { reason: 'not a record (a YAML mapping)' };
  const id = isObject(value.id) ? value.id : {};
  const key = personKey(id);
  if ('reason' in key) return key;
  const name = isObject(value.name) ? value.name : {};
  const first = text(name.first);
  const last = text(name.last);
  if (first === undefined || last === undefined) return { reason: 'name.first and name.last are required' };
  if (!Array.isArray(value.terms) || value.terms.length === 0) return { reason: 'no terms' };
  const terms: Term[] = [];
  for (const [i, raw] of value.terms.entries()) {
    const term = readTerm(raw);
    if ('reason' in term) return { reason: `term ${i + 1}: ${term.reason}` };
    terms.push(term);
  }
  const bio = isObject(value.bio) ? value.bio : {};
  const birthday = text(bio.birthday);
  return {
    ids: readIds(id),
    key,
    name: {
      first,
      last,
      middle: text(name.middle),
      suffix: text(name.suffix),
      nickname: text(name.nickname),
      officialFull: text(name.official_full),
    },
    birthday: birthday !== undefined && isIsoDate(birthday) ? birthday : null,
    gender: text(bio.gender) ?? null,
    terms,
  };
}

function personKey(id: Record<string, unknown>): LegislatorRecord['key'] | { reason: string } {
  const bioguide = text(id.bioguide);
  if (bioguide !== undefined)
    return /^[A-Z]\d{6}$/.test(bioguide)
      ? { scheme: 'bioguide', id: bioguide }
      : { reason: `id.bioguide "${bioguide}" is not a bioguide id (A000360)` };
  const govtrack = text(id.govtrack);
  if (govtrack !== undefined)
    return /^\d+$/.test(govtrack)
      ? { scheme: 'govtrack', id: govtrack }
      : { reason: `id.govtrack "${govtrack}" is not a GovTrack id` };
  return { reason: 'no id.bioguide or id.govtrack to know the person by' };
}

function readTerm(raw: unknown): Term | { reason: string } {
  if (!isObject(raw)) return { reason: 'not a mapping' };
  const type = text(raw.type);
  const start = text(raw.start);
  const end = text(raw.end);
  if (type === undefined) return { reason: 'no type' };
  if (start === undefined || !isIsoDate(start))
    return { reason: `start ${JSON.stringify(raw.start ?? null)} is not a YYYY-MM-DD date` };
  if (end === undefined || !isIsoDate(end))
    return { reason: `end ${JSON.stringify(raw.end ?? null)} is not a YYYY-MM-DD date` };
  const term: Term = { type, start, end };
  const state = text(raw.state);
  if (state !== undefined) term.state = state;
  const district = whole(raw.district);
  if (district !== undefined) term.district = district;
  const senateClass = whole(raw.class);
  if (senateClass !== undefined) term.class = senateClass;
  const party = text(raw.party);
  if (party !== undefined) term.party = party;
  return term;
}

/** A whole number written as a number or as digits (`district: 5`, `district: '05'`). */
function whole(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
}

/** External ids as lists of strings (`fec: [S8WA00194, H2WA01054]`, `govtrack: [300018]`), keys sorted. */
function readIds(id: Record<string, unknown>): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  for (const key of Object.keys(id).sort()) {
    const values = (Array.isArray(id[key]) ? (id[key] as unknown[]) : [id[key]])
      .map(text)
      .filter((v): v is string => v !== undefined);
    if (values.length > 0) ids[key] = values;
  }
  return ids;
}
