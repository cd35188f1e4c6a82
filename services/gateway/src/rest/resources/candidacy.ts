import type { Candidacy, Party, Position, Provenance, TeamContact } from '@civicgraph/protos/civic/graph/v1/graph';
import {
  BALLOT_ACCESSES,
  CONTACT_FIELDS as POLICY_CONTACT_FIELDS,
  FILING_STATUSES,
  PROVENANCE_METHODS,
} from '@civicgraph/kit';
import { nullable, object, orNull, ref, str, type JsonSchema } from '../schema/json-schema.js';

const slug = (kind: string): JsonSchema => ({ type: 'string', pattern: `^${kind}:`, description: `A ${kind} slug.` });
/** `campaignWebsite` → `campaign_website`: REST names the graph's fields in snake_case. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The candidacy fields only keys with the `contact` entitlement ever see (the policy's list, in REST's words). */
export const CONTACT_FIELDS: readonly string[] = POLICY_CONTACT_FIELDS.candidacy.map(snakeCase);

export const schemas: Record<string, JsonSchema> = {
  Provenance: object(
    {
      slug: slug('provenance'),
      source: str('The source, e.g. `FEC candidate master file 2026`.'),
      url: nullable({ type: 'string', format: 'uri' }),
      publisher: nullable(str('Who publishes the source.')),
      licence: nullable(str('The licence the source is published under.')),
      retrieved_at: nullable({ type: 'string', description: 'When civicgraph read the source (ISO 8601).' }),
      method: {
        type: 'string',
        enum: PROVENANCE_METHODS,
        description: 'How the record was obtained; `synthetic` marks demo data.',
      },
    },
    [],
    'One record a fact was drawn from.',
  ),
  FieldConfidence: object(
    {
      field: str('A candidacy field, e.g. `party`.'),
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      provenance: {
        type: 'array',
        items: slug('provenance'),
        description: 'The provenance records supporting the value.',
      },
    },
    [],
    'How sure civicgraph is of one field, and why.',
  ),
  Position: object({
    slug: slug('position'),
    issue: str('The issue, e.g. `housing`.'),
    stance: str('The stance, e.g. `supports`.'),
    summary: nullable(str('A one-line summary.')),
  }),
  TeamContact: object({
    role: str('e.g. `campaign manager`.'),
    name: nullable(str('Name.')),
    email: nullable({ type: 'string', format: 'email' }),
    phone: nullable(str('Phone number.')),
  }),
  Candidacy: object(
    {
      slug: slug('candidacy'),
      person: str("The candidate's name."),
      person_slug: slug('person'),
      contest: slug('contest'),
      party: nullable(str("The party's name; null for none or unknown.")),
      party_slug: nullable(slug('party')),
      is_incumbent: nullable({
        type: 'boolean',
        description: 'Whether the candidate holds the office now; null when unknown.',
      }),
      filing_status: nullable({ type: 'string', enum: FILING_STATUSES }),
      ballot_access: nullable({ type: 'string', enum: BALLOT_ACCESSES }),
      campaign_website: nullable({ type: 'string', format: 'uri' }),
      campaign_emails: {
        type: 'array',
        items: { type: 'string', format: 'email' },
        description: 'Only for keys with the `contact` entitlement; absent otherwise.',
      },
      campaign_phones: {
        type: 'array',
        items: str('Phone number.'),
        description: 'Only for keys with the `contact` entitlement; absent otherwise.',
      },
      campaign_team: {
        type: 'array',
        items: ref('TeamContact'),
        description: 'Only for keys with the `contact` entitlement; absent otherwise.',
      },
      positions: { type: 'array', items: ref('Position') },
      provenance: {
        type: 'array',
        items: ref('Provenance'),
        description: "Every source the candidacy's fields were drawn from.",
      },
      confidence: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'Overall confidence (README, "Provenance and confidence").',
      },
      field_confidence: {
        type: 'array',
        items: ref('FieldConfidence'),
        description: 'Confidence and sources of each field.',
      },
    },
    CONTACT_FIELDS,
    'A person running in a contest.',
  ),
};

const partyName = (p: Party | undefined) => orNull(p?.name);

function positionView(p: Position) {
  return { slug: p.slug, issue: p.issue, stance: p.stance, summary: orNull(p.summary) };
}

export function provenanceView(p: Provenance) {
  return {
    slug: p.slug,
    source: p.source,
    url: orNull(p.url),
    publisher: orNull(p.publisher),
    licence: orNull(p.licence),
    retrieved_at: orNull(p.retrievedAt),
    method: p.method,
  };
}

function teamView(t: TeamContact) {
  return { role: t.role, name: orNull(t.name), email: orNull(t.email), phone: orNull(t.phone) };
}

/**
 * REST shape of a candidacy. The contact fields are added only when `showContact` (the
 * policy's answer for the caller) and the graph service sent them; otherwise they are
 * absent, not null.
 */
export function candidacyView(c: Candidacy, showContact: boolean) {
  return {
    slug: c.slug,
    person: c.person?.name ?? c.name,
    person_slug: c.person?.slug ?? '',
    contest: c.contest,
    party: partyName(c.party),
    party_slug: orNull(c.party?.slug),
    is_incumbent: c.isIncumbent ?? null,
    filing_status: orNull(c.filingStatus),
    ballot_access: orNull(c.ballotAccess),
    campaign_website: orNull(c.campaignWebsite),
    ...(showContact && c.contactIncluded
      ? {
          campaign_emails: c.campaignEmails,
          campaign_phones: c.campaignPhones,
          campaign_team: c.campaignTeam.map(teamView),
        }
      : {}),
    positions: c.positions.map(positionView),
    provenance: c.provenance.map(provenanceView),
    confidence: c.confidence,
    field_confidence: c.fields.map((f) => ({
      field: snakeCase(f.field),
      confidence: f.confidence,
      provenance: f.provenance,
    })),
  };
}
