import type { ContestType, EdgeKind, Level, NodeKind, Tier } from './kinds.js';

/**
 * The stored shape of a node: storage-neutral JSON, the same in every GraphStore adapter.
 * `state` and `tier` are the scope a key's jurisdictions are checked against, kept on the
 * node itself so a store can filter on them inside its query.
 */
export interface NodeDoc<K extends NodeKind = NodeKind> {
  /** `<kind>:<key>`. */
  slug: string;
  kind: K;
  /** Lowercase USPS code of the state the node belongs to; '' for national or none. */
  state: string;
  /** Jurisdiction tier (offices, contests, candidacies, officeholder terms); '' when none applies. */
  tier: Tier | '';
  data: NodeData[K];
  /** 1 on creation, +1 on every change: writes are conditional on it. */
  rev: number;
  /** RFC 3339 instant of the last change. */
  updatedAt: string;
}

/** An edge; (kind, from, to, key) identifies it. `key` tells apart parallel edges (HOLDS terms). */
export interface EdgeDoc {
  kind: EdgeKind;
  from: string;
  to: string;
  key: string;
  data: Record<string, string | number | boolean | null>;
}

export const edgeId = (e: Pick<EdgeDoc, 'kind' | 'from' | 'to' | 'key'>): string =>
  `${e.kind}|${e.from}|${e.to}|${e.key}`;

// ——— provenance ———

/** How a source produced a value; drives its base reliability (see domain/confidence.ts). */
export { PROVENANCE_METHODS, type ProvenanceMethod } from '@civicgraph/kit';
import type { BallotAccess, FilingStatus, ProvenanceMethod } from '@civicgraph/kit';
import { CONTACT_FIELDS as POLICY_CONTACT_FIELDS } from '@civicgraph/kit';

export interface ProvenanceData {
  /** Source name, e.g. `FEC candidate master 2026`. */
  source: string;
  url: string;
  publisher: string;
  licence: string;
  /** RFC 3339 instant the source was read. */
  retrievedAt: string;
  method: ProvenanceMethod;
}

// ——— candidacies ———

/** Values a candidacy field may take. */
export type FieldScalar = string | number | boolean | null;
export type FieldValue = FieldScalar | FieldScalar[] | Record<string, FieldScalar>[];

/** One source's statement of one field's value. */
export interface Claim {
  value: FieldValue;
  /** Slug of the provenance record that states it. */
  provenance: string;
}

/** A candidacy field: the value held, every claim about it, and how sure we are (0..1). */
export interface Field<V extends FieldValue = FieldValue> {
  value: V;
  confidence: number;
  claims: Claim[];
}

export { FILING_STATUSES, BALLOT_ACCESSES, type FilingStatus, type BallotAccess } from '@civicgraph/kit';

/** Candidacy fields that carry claims; contact fields need the `contact` entitlement. */
export interface CandidacyFields {
  name: Field<string>;
  /** Slug of the person. */
  person: Field<string>;
  /** Slug of the contest. */
  contest: Field<string>;
  /** Slug of the party; null for none. */
  party?: Field<string | null>;
  isIncumbent?: Field<boolean | null>;
  filingStatus?: Field<FilingStatus | null>;
  ballotAccess?: Field<BallotAccess | null>;
  campaignWebsite?: Field<string | null>;
  campaignEmails?: Field<string[]>;
  campaignPhones?: Field<string[]>;
  campaignTeam?: Field<Record<string, FieldScalar>[]>;
}
export type CandidacyField = keyof CandidacyFields;
// The policy module owns the lists; these check that each names a stored field.
export const CONTACT_FIELDS = POLICY_CONTACT_FIELDS.candidacy satisfies readonly CandidacyField[];
export const OFFICEHOLDER_CONTACT_FIELDS = POLICY_CONTACT_FIELDS.officeholder satisfies readonly (keyof PersonData)[];

export interface CandidacyData {
  fields: CandidacyFields;
  /** Derived from the fields' confidences (domain/confidence.ts). */
  confidence: number;
  /** Slugs of positions taken. */
  positions: string[];
}

// ——— the other kinds ———

export interface RegionData {
  name: string;
  level: Level;
  /** Census FIPS / GEOID; '' when none exists. */
  fips: string;
  /** Open Civic Data division id; '' when unknown. */
  ocdId: string;
  /** Other OCD ids naming the same division. */
  aliases: string[];
  population: number | null;
}

export interface ElectionData {
  name: string;
  /** YYYY-MM-DD. */
  date: string;
  type: ContestType;
}

export interface ContestData {
  /** Display name, e.g. `U.S. Representative, Colorado District 1`. */
  name: string;
  type: ContestType;
  /** YYYY-MM-DD election day. */
  date: string;
  year: number;
  level: Level;
  /** Slugs (also edges): the region the contest is held in and the office it fills. */
  region: string;
  office: string;
  /** Seats filled (magnitude); 1 for most. */
  seats: number;
  special: boolean;
}

export interface OfficeData {
  /** e.g. `U.S. Representative`. */
  name: string;
  level: Level;
  tier: Tier;
  region: string;
}

export interface PersonData {
  name: string;
  givenName: string | null;
  familyName: string | null;
  /** External ids: bioguide, fec (comma-free list joined by the importer), ocd-person, … */
  ids: Record<string, string[]>;
  birthday: string | null;
  gender: string | null;
  /**
   * When the source that stated this data read it (its provenance's retrievedAt): a source
   * read earlier does not overwrite it, so the person's name is the newest source's
   * whichever is imported last (weball24 after weball26 leaves the 2026 name). Absent: any
   * statement replaces it.
   */
  asOf?: string;
  /**
   * How to reach the person as an officeholder (Open States): contact data, shown only to
   * keys with the `contact` entitlement (kit's policy, CONTACT_FIELDS.officeholder). Kept on
   * the person, not on a HOLDS term: the source publishes them per person, and a new phone
   * number is not a change of who holds an office. Absent when the source gives none.
   */
  contactOffices?: ContactOffice[];
  contactEmails?: string[];
  contactLinks?: ContactLink[];
}

/** An office where an officeholder can be reached: `capitol`, `district`, `primary`. */
export interface ContactOffice {
  /** The source's classification (or note) of the office, e.g. `capitol`; '' when none. */
  kind: string;
  address: string | null;
  /** Voice phone number, as written by the source. */
  voice: string | null;
  fax: string | null;
}

/** A web address about an officeholder (a homepage, a web form), with the source's note ('' when none). */
export interface ContactLink {
  url: string;
  note: string;
}

export interface PartyData {
  name: string;
  /** Short code, e.g. `DEM`. */
  abbreviation: string;
}

export interface PositionData {
  issue: string;
  stance: string;
  summary: string;
}

export interface ResultData {
  contest: string;
  /** Slug of the candidacy, when the result names a known candidacy; '' for a ballot-measure choice. */
  candidacy: string;
  /** The choice as written by the source: a candidate's name, `YES`, `NO`. */
  choice: string;
  party: string;
  votes: number;
  /** votes / totalVotes, 0..1; null when the total is unknown. */
  share: number | null;
  totalVotes: number | null;
  certified: boolean;
  winner: boolean | null;
}

export interface NodeData {
  region: RegionData;
  election: ElectionData;
  contest: ContestData;
  office: OfficeData;
  candidacy: CandidacyData;
  person: PersonData;
  party: PartyData;
  position: PositionData;
  provenance: ProvenanceData;
  result: ResultData;
}
