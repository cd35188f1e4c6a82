import type { EdgeDoc, CandidacyField, FieldValue, NodeData } from '../model/nodes.js';
import type { NodeKind, Tier } from '../model/kinds.js';

/**
 * What a source says, before it meets the store: importers and the demo generator produce
 * drafts, and the GraphWriter (domain/writer.ts) turns them into conditional change sets
 * with events, merging candidacy claims with those already held. Drafts carry no rev, no
 * timestamps and no confidence: the writer owns those.
 */
export type NodeDraft =
  { [K in Exclude<NodeKind, 'candidacy'>]: PlainDraft<K> }[Exclude<NodeKind, 'candidacy'>] | CandidacyDraft;

export interface PlainDraft<K extends Exclude<NodeKind, 'candidacy'>> {
  kind: K;
  slug: string;
  state: string;
  tier: Tier | '';
  data: NodeData[K];
  /**
   * A reference to a node another source owns (the district an FEC row names, the state a
   * legislator serves): the writer creates the node from this draft when it is missing and
   * never updates a stored node from it, so two importers that name the same node do not
   * overwrite each other's data. Absent or false: the draft states the node's data.
   */
  createOnly?: boolean;
}

/**
 * One source's statements about a candidacy. Each named field becomes a claim backed by
 * `provenance` (a provenance slug, drafted in the same batch or already stored); a claim
 * from the same provenance slug replaces that provenance's earlier claim on the field.
 * `name`, `person` and `contest` are required on a candidacy's first draft.
 */
export interface CandidacyDraft {
  kind: 'candidacy';
  slug: string;
  state: string;
  tier: Tier | '';
  claims: Partial<Record<CandidacyField, FieldValue>>;
  provenance: string;
  positions?: string[];
}

/** Everything one source row (or record) yields; the writer applies it atomically. */
export interface DraftBatch {
  nodes: NodeDraft[];
  edges: EdgeDoc[];
}

/** A source row that could not be used, and why, in words a data editor can act on. */
export interface Rejection {
  /** Where in the source: `line 12`, `record 3 (bioguide A000360)`, `Candidate can10`. */
  at: string;
  reason: string;
}

/** An importer's output, row by row: a batch to write or a rejection. */
export type DraftItem = { batch: DraftBatch; at: string } | { rejected: Rejection };
