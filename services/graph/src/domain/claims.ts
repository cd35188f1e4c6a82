import { InvalidParameterError } from '@civicgraph/kit';
import { parseSlug } from '../model/slugs.js';
import type { CandidacyData, CandidacyField, CandidacyFields, Claim, Field, FieldValue } from '../model/nodes.js';
import { candidacyConfidence, resolveField, UNKNOWN_WHEN_NULL, type ProvenanceLookup } from './confidence.js';
import { isBallotAccess, isFilingStatus } from './candidacy-states.js';

/**
 * Candidacy claims: merging one source's statements into those already held, checking
 * they are well formed, and resolving every field's value and confidence from them.
 */

/** Every claim held about a candidacy, by field. */
export type ClaimsByField = Partial<Record<CandidacyField, Claim[]>>;

/** The fields a candidacy can carry, in the order they are stored. */
export const CANDIDACY_FIELDS = [
  'name',
  'person',
  'contest',
  'party',
  'isIncumbent',
  'filingStatus',
  'ballotAccess',
  'campaignWebsite',
  'campaignEmails',
  'campaignPhones',
  'campaignTeam',
] as const satisfies readonly CandidacyField[];

/** Fields a candidacy cannot exist without: its first draft must claim each. */
export const REQUIRED_FIELDS = ['name', 'person', 'contest'] as const satisfies readonly CandidacyField[];

export function isCandidacyField(s: string): s is CandidacyField {
  return (CANDIDACY_FIELDS as readonly string[]).includes(s);
}

/** The snake_case name of a field, as errors and REST name it: `filingStatus` → `filing_status`. */
export function snakeField(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The claims held by a stored candidacy (none for a new one). */
export function claimsOf(data: CandidacyData | undefined): ClaimsByField {
  const out: ClaimsByField = {};
  if (!data) return out;
  for (const field of CANDIDACY_FIELDS) {
    const f = data.fields[field] as Field | undefined;
    if (f) out[field] = f.claims.map((c) => ({ value: c.value, provenance: c.provenance }));
  }
  return out;
}

/**
 * `held` with one source's statements added: on each field named, the claim from the same
 * provenance slug is replaced, others are kept. Claims are kept sorted by provenance slug,
 * so the stored result does not depend on the order sources arrived in.
 */
export function mergeClaims(
  held: ClaimsByField,
  statements: Partial<Record<CandidacyField, FieldValue>>,
  provenance: string,
): ClaimsByField {
  const out: ClaimsByField = { ...held };
  for (const [field, value] of Object.entries(statements) as [CandidacyField, FieldValue | undefined][]) {
    if (value === undefined) continue;
    const others = (held[field] ?? []).filter((c) => c.provenance !== provenance);
    out[field] = [...others, { value, provenance }].sort((a, b) =>
      a.provenance < b.provenance ? -1 : a.provenance > b.provenance ? 1 : 0,
    );
  }
  return out;
}

/** Checks one source's statements about candidacy `slug`; throws InvalidParameterError naming the field. */
export function validateStatements(slug: string, statements: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(statements)) {
    if (value === undefined) continue;
    if (!isCandidacyField(field))
      throw new InvalidParameterError(snakeField(field), `${slug}: "${field}" is not a candidacy field`);
    const problem = FIELD_CHECKS[field](value);
    if (problem)
      throw new InvalidParameterError(
        snakeField(field),
        `${slug}: ${snakeField(field)} ${problem}, got ${JSON.stringify(value)}`,
      );
  }
}

type Check = (v: unknown) => string | undefined;
const slugOf =
  (kind: 'person' | 'contest' | 'party'): Check =>
  (v) =>
    typeof v === 'string' && parseSlug(v)?.kind === kind ? undefined : `must be a ${kind} slug`;
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null ? undefined : check(v);
const text: Check = (v) => (typeof v === 'string' && v.trim() !== '' ? undefined : 'must be non-empty text');
const texts: Check = (v) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? undefined : 'must be a list of text';
const records: Check = (v) =>
  Array.isArray(v) &&
  v.every(
    (r) =>
      typeof r === 'object' &&
      r !== null &&
      !Array.isArray(r) &&
      Object.values(r).every((x) => x === null || typeof x !== 'object'),
  )
    ? undefined
    : 'must be a list of flat records';

const FIELD_CHECKS: Record<CandidacyField, Check> = {
  name: text,
  person: slugOf('person'),
  contest: slugOf('contest'),
  party: nullable(slugOf('party')),
  isIncumbent: nullable((v) => (typeof v === 'boolean' ? undefined : 'must be true, false or null')),
  filingStatus: nullable((v) =>
    isFilingStatus(v) ? undefined : 'must be DECLARED, FILED, QUALIFIED, WITHDRAWN, DISQUALIFIED or null',
  ),
  ballotAccess: nullable((v) =>
    isBallotAccess(v) ? undefined : 'must be PENDING, ON_BALLOT, WRITE_IN, DENIED, REMOVED or null',
  ),
  campaignWebsite: nullable(text),
  campaignEmails: texts,
  campaignPhones: texts,
  campaignTeam: records,
};

/**
 * The candidacy data the claims support at `asOf`: each field's held value and confidence
 * (confidence.ts), and the candidacy's confidence from its fields'. A field whose claims
 * all abstain (null where null means unknown) holds null at confidence 0 and does not
 * count toward the candidacy's confidence.
 */
export function resolveCandidacy(
  slug: string,
  claims: ClaimsByField,
  positions: string[],
  provenanceOf: ProvenanceLookup,
  asOf: Date,
): CandidacyData {
  const fields: Partial<Record<CandidacyField, Field>> = {};
  const confidences: Partial<Record<CandidacyField, number>> = {};
  for (const field of CANDIDACY_FIELDS) {
    const held = claims[field];
    if (!held || held.length === 0) continue;
    const r = resolveField(held, provenanceOf, asOf, { nullIsUnknown: UNKNOWN_WHEN_NULL.includes(field) });
    fields[field] = { value: r?.value ?? null, confidence: r?.confidence ?? 0, claims: held };
    if (r) confidences[field] = r.confidence;
  }
  for (const field of REQUIRED_FIELDS) {
    if (typeof fields[field]?.value !== 'string') {
      throw new InvalidParameterError(field, `${slug}: a candidacy needs a ${field}; no source has stated one`);
    }
  }
  return { fields: fields as unknown as CandidacyFields, confidence: candidacyConfidence(confidences), positions };
}
