import { InvalidParameterError } from '@civicgraph/kit';
import type { CandidacyField, Claim, FieldValue, ProvenanceData, ProvenanceMethod } from '../model/nodes.js';
import { parseInstant } from './instants.js';
import { valueKey } from './value-key.js';

/**
 * Confidence is computed, never typed in (DESIGN): from how reliable each source's method
 * is, how old its reading is, and whether independent sources agree. The model is written
 * out in CONFIDENCE.md; the constants below are its parameters, exported so tests and
 * docs name the same numbers. Pure functions: the same claims, provenance and `asOf` give
 * the same answer.
 */

/**
 * Base reliability of a value by how its source produced it. An official filing is the
 * candidate's own sworn statement to the authority; a curated import (a maintained open
 * dataset) is close behind; a person keying in a value can slip; a scraper can misread a
 * page; synthetic values are invented for demos and must never look trustworthy.
 */
export const BASE_RELIABILITY: Readonly<Record<ProvenanceMethod, number>> = Object.freeze({
  'official-filing': 0.95,
  import: 0.8,
  manual: 0.7,
  scrape: 0.6,
  synthetic: 0.2,
});

/**
 * Half-life of a reading, in days. Candidacy facts move on the scale of an election
 * cycle (filings, withdrawals, ballot certification, a new campaign site): a year-old
 * reading has likely seen one cycle's changes and is worth half a fresh one.
 */
export const HALF_LIFE_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Weights of each field in a candidacy's overall confidence. Who runs (name, person), in
 * which contest and for which party is what a ballot shows and what users act on; state
 * fields next; contact details least.
 */
export const FIELD_WEIGHTS: Readonly<Record<CandidacyField, number>> = Object.freeze({
  name: 3,
  contest: 3,
  party: 3,
  person: 2,
  filingStatus: 2,
  ballotAccess: 2,
  isIncumbent: 1,
  campaignWebsite: 1,
  campaignEmails: 1,
  campaignPhones: 1,
  campaignTeam: 1,
});

/**
 * Fields where a null claim means "this source does not know", not "none": such a claim
 * abstains instead of voting against the others. (For `party`, null is a statement: no party.)
 */
export const UNKNOWN_WHEN_NULL: readonly CandidacyField[] = Object.freeze([
  'filingStatus',
  'ballotAccess',
  'isIncumbent',
]);

/** Decimal places kept in stored confidences: stable comparisons, no float noise in events. */
const PLACES = 4;

/** Reliability of one provenance record at `asOf`: its method's base, halved every half-life. */
export function reliability(p: ProvenanceData, asOf: Date, provenanceSlug = p.source): number {
  const base = BASE_RELIABILITY[p.method];
  if (base === undefined) {
    throw new InvalidParameterError('method', `provenance ${provenanceSlug} has unknown method "${String(p.method)}"`);
  }
  const retrieved = parseInstant(p.retrievedAt);
  if (Number.isNaN(retrieved)) {
    throw new InvalidParameterError(
      'retrieved_at',
      `provenance ${provenanceSlug} has an unreadable retrievedAt "${p.retrievedAt}"`,
    );
  }
  // A reading from the future (clock skew) counts as fresh, not as extra-reliable.
  const ageDays = Math.max(0, asOf.getTime() - retrieved) / DAY_MS;
  return base * 2 ** (-ageDays / HALF_LIFE_DAYS);
}

/** Independent sources are distinct (source, publisher) pairs: re-reads of one source are one voice. */
export function sourceId(p: ProvenanceData): string {
  return `${p.source}\u0000${p.publisher}`;
}

/** Looks up a provenance record by slug; undefined when it is not known. */
export type ProvenanceLookup = (slug: string) => ProvenanceData | undefined;

/** A field's held value and how sure we are of it. */
export interface Resolution {
  value: FieldValue;
  confidence: number;
}

export interface ResolveOptions {
  /** Null claims abstain (see UNKNOWN_WHEN_NULL). Default false: null is a value like any other. */
  nullIsUnknown?: boolean;
}

/** One independent source's latest word on the field. */
interface Vote {
  key: string;
  value: FieldValue;
  reliability: number;
  retrieved: number;
  provenance: string;
}

/**
 * The value a field holds given every claim about it, and its confidence (0..1):
 * each independent source votes once with its latest claim; a value scores the noisy-OR
 * of its supporters' reliabilities times one minus the noisy-OR of its dissenters'.
 * Undefined when no claim takes part (none, or all abstaining).
 */
export function resolveField(
  claims: readonly Claim[],
  provenanceOf: ProvenanceLookup,
  asOf: Date,
  options: ResolveOptions = {},
): Resolution | undefined {
  const taking = options.nullIsUnknown ? claims.filter((c) => c.value !== null) : claims;
  const votes = latestPerSource(taking, provenanceOf, asOf);
  if (votes.length === 0) return undefined;
  const best = [...groupByValue(votes).values()].map((group) => scoreGroup(group, votes)).sort(compareScored)[0]!;
  return { value: best.value, confidence: round(best.score) };
}

/** Overall candidacy confidence: FIELD_WEIGHTS-weighted mean of the fields that resolved; 0 when none did. */
export function candidacyConfidence(fieldConfidences: Partial<Record<CandidacyField, number>>): number {
  let weighted = 0;
  let weights = 0;
  for (const [field, confidence] of Object.entries(fieldConfidences) as [CandidacyField, number | undefined][]) {
    const w = FIELD_WEIGHTS[field];
    if (confidence === undefined || w === undefined) continue;
    weighted += w * confidence;
    weights += w;
  }
  return weights === 0 ? 0 : round(weighted / weights);
}

/** Noisy-OR: the chance at least one of several independent sources is right. */
export function noisyOr(reliabilities: readonly number[]): number {
  return 1 - reliabilities.reduce((miss, r) => miss * (1 - r), 1);
}

function latestPerSource(claims: readonly Claim[], provenanceOf: ProvenanceLookup, asOf: Date): Vote[] {
  const bySource = new Map<string, Vote>();
  for (const claim of claims) {
    const p = provenanceOf(claim.provenance);
    if (!p)
      throw new InvalidParameterError('provenance', `claim cites provenance ${claim.provenance}, which is not known`);
    const vote: Vote = {
      key: valueKey(claim.value),
      value: claim.value,
      reliability: reliability(p, asOf, claim.provenance),
      retrieved: parseInstant(p.retrievedAt),
      provenance: claim.provenance,
    };
    const id = sourceId(p);
    const held = bySource.get(id);
    if (!held || isLater(vote, held)) bySource.set(id, vote);
  }
  return [...bySource.values()];
}

/** Later reading wins; equal instants fall back to the provenance slug so the pick is stable. */
function isLater(a: Vote, b: Vote): boolean {
  return a.retrieved !== b.retrieved ? a.retrieved > b.retrieved : a.provenance < b.provenance;
}

function groupByValue(votes: readonly Vote[]): Map<string, Vote[]> {
  const groups = new Map<string, Vote[]>();
  for (const v of votes) groups.set(v.key, [...(groups.get(v.key) ?? []), v]);
  return groups;
}

interface Scored {
  key: string;
  value: FieldValue;
  score: number;
  support: number;
  latest: number;
}

function scoreGroup(group: readonly Vote[], all: readonly Vote[]): Scored {
  const key = group[0]!.key;
  const support = noisyOr(group.map((v) => v.reliability));
  const dissent = noisyOr(all.filter((v) => v.key !== key).map((v) => v.reliability));
  // The held form of the value is the one its most reliable supporter wrote.
  const voice = [...group].sort((a, b) => b.reliability - a.reliability || (a.provenance < b.provenance ? -1 : 1))[0]!;
  return {
    key,
    value: voice.value,
    score: support * (1 - dissent),
    support,
    latest: Math.max(...group.map((v) => v.retrieved)),
  };
}

/** Best first: score, then support, then the most recent reading, then the value key (total order). */
function compareScored(a: Scored, b: Scored): number {
  return (
    b.score - a.score || b.support - a.support || b.latest - a.latest || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

function round(x: number): number {
  const f = 10 ** PLACES;
  return Math.min(1, Math.max(0, Math.round(x * f) / f));
}
