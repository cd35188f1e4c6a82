import { InvalidParameterError, type CivicEvent } from '@civicgraph/kit';
import type { NodeKind } from '../model/kinds.js';
import {
  edgeId,
  type BallotAccess,
  type CandidacyData,
  type EdgeDoc,
  type FilingStatus,
  type NodeDoc,
  type PersonData,
  type ProvenanceData,
} from '../model/nodes.js';
import type { ChangeSet } from '../store/graph-store.js';
import { assertBallotMove, assertFilingMove } from './candidacy-states.js';
import { claimsOf, mergeClaims, resolveCandidacy, type ClaimsByField } from './claims.js';
import { changedKeys, deepEqual } from './diff.js';
import { checkBatch, checkEdge } from './draft-checks.js';
import type { CandidacyDraft, DraftBatch, NodeDraft, PlainDraft } from './drafts.js';
import { nodeEvent, type NodeChange } from './events.js';
import { officeholderEvents } from './officeholder-events.js';

/**
 * Turning a draft batch into one conditional change set, given what the store held when
 * it was read (the snapshot). Pure: no I/O, so the writer can re-plan from a fresh read
 * after a rev conflict, and the rules can be tested without a store.
 */

/** What the store held for a batch: its nodes (and the provenance they cite) and existing edges. */
export interface Snapshot {
  nodes: ReadonlyMap<string, NodeDoc>;
  /** Stored edges by edgeId, at least for every (from, kind) the batch links. */
  edges: ReadonlyMap<string, EdgeDoc>;
}

export type Outcome = 'created' | 'updated' | 'unchanged';

/** What became of one drafted node. */
export interface NodeOutcome {
  slug: string;
  kind: NodeKind;
  outcome: Outcome;
  /** Data keys (candidacies: field names) that changed; empty when created or unchanged. */
  changedFields: string[];
}

/** What applying a batch did. */
export interface BatchOutcome {
  /** One entry per drafted slug, in first-drafted order. */
  nodes: NodeOutcome[];
  created: number;
  updated: number;
  unchanged: number;
  /** Edges written (new, or with changed data); edges already stored as drafted are left alone. */
  linked: number;
  /** Events committed to the outbox with the change. */
  events: number;
}

export interface Plan {
  changes: ChangeSet;
  outcome: BatchOutcome;
  /** Every drafted node as it will be after the commit (unchanged ones as stored). */
  after: ReadonlyMap<string, NodeDoc>;
}

export interface PlanContext {
  env: string;
  now: Date;
}

/** The slugs a batch needs read before planning: drafted nodes, cited provenance, edge ends. */
export function slugsToRead(batch: DraftBatch): string[] {
  const slugs = new Set<string>();
  for (const d of batch.nodes) {
    slugs.add(d.slug);
    if (d.kind === 'candidacy') slugs.add(d.provenance);
  }
  for (const e of batch.edges) slugs.add(e?.from).add(e?.to);
  // Malformed entries are reported by planBatch's checks; the store is asked only for text.
  return [...slugs].filter((s) => typeof s === 'string');
}

/** Provenance slugs cited by stored candidacies' claims: needed to re-score them. */
export function citedProvenance(nodes: Iterable<NodeDoc>): string[] {
  const slugs = new Set<string>();
  for (const n of nodes) {
    if (n.kind !== 'candidacy') continue;
    for (const claims of Object.values(claimsOf((n as NodeDoc<'candidacy'>).data)))
      for (const c of claims ?? []) slugs.add(c.provenance);
  }
  return [...slugs];
}

/**
 * The edges a batch links: its own, plus candidacy → provenance (SUPPORTED_BY) for every
 * candidacy draft, so each source backing a candidacy is reachable in the graph too.
 * De-duplicated by identity; a later duplicate wins.
 */
export function plannedEdges(batch: DraftBatch): EdgeDoc[] {
  const byId = new Map<string, EdgeDoc>();
  for (const d of batch.nodes) {
    if (d.kind !== 'candidacy') continue;
    const e: EdgeDoc = { kind: 'SUPPORTED_BY', from: d.slug, to: d.provenance, key: '', data: {} };
    byId.set(edgeId(e), e);
  }
  for (const e of batch.edges)
    byId.set(typeof e === 'object' && e !== null ? edgeId(e) : String(e), {
      ...e,
      key: e?.key ?? '',
      data: e?.data ?? {},
    });
  return [...byId.values()];
}

/** Plans a batch against a snapshot; throws InvalidParameterError (nothing planned) on bad input or an illegal move. */
export function planBatch(batch: DraftBatch, snap: Snapshot, ctx: PlanContext): Plan {
  checkBatch(batch);
  const order = [...new Set(batch.nodes.map((d) => d.slug))];
  const plain = latestPlainDrafts(batch.nodes);
  const provenanceOf = (slug: string): ProvenanceData | undefined =>
    provenanceIn(plain.get(slug), snap.nodes.get(slug));
  const candidacies = mergeCandidacyDrafts(batch.nodes, snap, provenanceOf, ctx.now);

  const after = new Map<string, NodeDoc>();
  const changes: NodeChange[] = [];
  const record = (slug: string, doc: NodeDoc, outcome: Outcome, fields: string[]): NodeOutcome => {
    after.set(slug, doc);
    const before = snap.nodes.get(slug);
    if (outcome !== 'unchanged')
      changes.push({
        kind: doc.kind,
        verb: outcome,
        slugs: [slug],
        changedFields: [...fields],
        rev: doc.rev,
        after: doc,
        ...(before === undefined ? {} : { before }),
      });
    return { slug, kind: doc.kind, outcome, changedFields: outcome === 'updated' ? fields : [] };
  };

  const outcomes = new Map<string, NodeOutcome>();
  for (const [slug, d] of plain) outcomes.set(slug, record(slug, ...planPlain(d, snap.nodes.get(slug), ctx.now)));
  const changedProvenance = new Set(
    [...outcomes.values()].filter((o) => o.kind === 'provenance' && o.outcome !== 'unchanged').map((o) => o.slug),
  );
  for (const [slug, work] of candidacies) {
    outcomes.set(
      slug,
      record(
        slug,
        ...planCandidacy(
          work,
          snap.nodes.get(slug) as NodeDoc<'candidacy'> | undefined,
          changedProvenance,
          provenanceOf,
          ctx.now,
        ),
      ),
    );
  }

  const exists = (slug: string): boolean => after.has(slug) || snap.nodes.has(slug);
  const link = plannedEdges(batch).filter((e) => {
    checkEdge(e, exists);
    const held = snap.edges.get(edgeId(e));
    return !held || !deepEqual(held.data, e.data);
  });
  const nodeOf = (slug: string): NodeDoc => after.get(slug) ?? snap.nodes.get(slug)!;
  addEdgeChanges(changes, link, nodeOf);

  const events: CivicEvent[] = [
    ...changes.map((c) => nodeEvent(ctx.env, c, ctx.now)),
    ...officeholderEvents(ctx.env, link, snap.edges, nodeOf, ctx.now),
  ];
  const put = [...after.values()]
    .filter((n) => outcomes.get(n.slug)!.outcome !== 'unchanged')
    .map((node) => ({ node, expectRev: node.rev - 1 }));
  const nodes = order.map((s) => outcomes.get(s)!);
  const count = (o: Outcome): number => nodes.filter((n) => n.outcome === o).length;
  return {
    changes: { put, remove: [], link, unlink: [], events },
    outcome: {
      nodes,
      created: count('created'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      linked: link.length,
      events: events.length,
    },
    after,
  };
}

type Planned = [NodeDoc, Outcome, string[]];

/**
 * Plain drafts by slug, the last draft of a slug winning, except that a reference
 * (createOnly) never displaces a full draft: a batch merged from several rows then ends as
 * those rows applied one after another would.
 */
function latestPlainDrafts(drafts: readonly NodeDraft[]): Map<string, PlainDraft<Exclude<NodeKind, 'candidacy'>>> {
  const out = new Map<string, PlainDraft<Exclude<NodeKind, 'candidacy'>>>();
  for (const d of drafts) {
    if (d.kind === 'candidacy') continue;
    const held = out.get(d.slug);
    if (d.createOnly === true && held !== undefined && held.createOnly !== true) continue;
    out.set(d.slug, d);
  }
  return out;
}

function provenanceIn(
  drafted: PlainDraft<Exclude<NodeKind, 'candidacy'>> | undefined,
  stored: NodeDoc | undefined,
): ProvenanceData | undefined {
  if (drafted) return drafted.kind === 'provenance' ? (drafted.data as ProvenanceData) : undefined;
  return stored?.kind === 'provenance' ? (stored.data as ProvenanceData) : undefined;
}

function planPlain(d: PlainDraft<Exclude<NodeKind, 'candidacy'>>, stored: NodeDoc | undefined, now: Date): Planned {
  if (!stored)
    return [
      { slug: d.slug, kind: d.kind, state: d.state, tier: d.tier, data: d.data, rev: 1, updatedAt: now.toISOString() },
      'created',
      [],
    ];
  // A reference (createOnly) names a node another source owns: it may create it, never change it.
  if (d.createOnly === true) return [stored, 'unchanged', []];
  if (isOlderStatement(d, stored)) return [stored, 'unchanged', []];
  const fields = [...changedKeys(stored.data, d.data), ...scopeChanges(stored, d)];
  if (fields.length === 0) return [stored, 'unchanged', []];
  return [
    { ...stored, state: d.state, tier: d.tier, data: d.data, rev: stored.rev + 1, updatedAt: now.toISOString() },
    'updated',
    fields,
  ];
}

/** A person stated by a source read before the one that stated what is stored (PersonData.asOf). */
function isOlderStatement(d: PlainDraft<Exclude<NodeKind, 'candidacy'>>, stored: NodeDoc): boolean {
  if (d.kind !== 'person' || stored.kind !== 'person') return false;
  const held = (stored.data as PersonData).asOf;
  const next = (d.data as PersonData).asOf;
  return held !== undefined && next !== undefined && next < held;
}

function scopeChanges(stored: Pick<NodeDoc, 'state' | 'tier'>, next: Pick<NodeDoc, 'state' | 'tier'>): string[] {
  return [...(stored.state === next.state ? [] : ['state']), ...(stored.tier === next.tier ? [] : ['tier'])];
}

/** A candidacy's claims after every draft of it in the batch, in batch order. */
interface CandidacyWork {
  slug: string;
  state: string;
  tier: CandidacyDraft['tier'];
  claims: ClaimsByField;
  positions: string[];
}

/**
 * Every candidacy's claims after each of its drafts in batch order. Each draft that changes
 * a candidacy already held (stored, or drafted earlier in the batch) is checked as a state
 * move on its own, so a batch merged from several rows refuses exactly what those rows
 * applied one after another would.
 */
function mergeCandidacyDrafts(
  drafts: readonly NodeDraft[],
  snap: Snapshot,
  provenanceOf: (slug: string) => ProvenanceData | undefined,
  now: Date,
): Map<string, CandidacyWork> {
  const out = new Map<string, CandidacyWork>();
  for (const d of drafts) {
    if (d.kind !== 'candidacy') continue;
    if (!provenanceOf(d.provenance)) {
      throw new InvalidParameterError(
        'provenance',
        `${d.slug}: provenance ${d.provenance} is neither in the batch nor stored`,
      );
    }
    const stored = snap.nodes.get(d.slug) as NodeDoc<'candidacy'> | undefined;
    const earlier = out.get(d.slug);
    const held = earlier ?? {
      slug: d.slug,
      state: d.state,
      tier: d.tier,
      claims: claimsOf(stored?.data),
      positions: stored?.data.positions ?? [],
    };
    const next: CandidacyWork = {
      slug: d.slug,
      state: d.state,
      tier: d.tier,
      claims: mergeClaims(held.claims, d.claims, d.provenance),
      // Positions accumulate: one source listing some does not retract another's.
      positions: d.positions ? [...new Set([...held.positions, ...d.positions])].sort() : held.positions,
    };
    if (!deepEqual(held.claims, next.claims)) {
      const before =
        earlier !== undefined
          ? resolveCandidacy(d.slug, earlier.claims, earlier.positions, provenanceOf, now)
          : stored?.data;
      if (before !== undefined)
        checkMoves(d.slug, before, resolveCandidacy(d.slug, next.claims, next.positions, provenanceOf, now));
    }
    out.set(d.slug, next);
  }
  return out;
}

/**
 * A candidacy is re-scored only when its claims, positions or scope changed, or a
 * provenance record its claims cite changed in this batch. Re-applying a batch later is
 * therefore a no-op even though time has passed: confidence is not re-aged by a write
 * that brings nothing new.
 */
function planCandidacy(
  work: CandidacyWork,
  stored: NodeDoc<'candidacy'> | undefined,
  changedProvenance: ReadonlySet<string>,
  provenanceOf: (slug: string) => ProvenanceData | undefined,
  now: Date,
): Planned {
  const citesChanged = Object.values(work.claims).some((cs) => cs?.some((c) => changedProvenance.has(c.provenance)));
  if (
    stored &&
    !citesChanged &&
    deepEqual(claimsOf(stored.data), work.claims) &&
    deepEqual(stored.data.positions, work.positions) &&
    scopeChanges(stored, work).length === 0
  ) {
    return [stored, 'unchanged', []];
  }
  const data = resolveCandidacy(work.slug, work.claims, work.positions, provenanceOf, now);
  if (!stored)
    return [
      {
        slug: work.slug,
        kind: 'candidacy',
        state: work.state,
        tier: work.tier,
        data,
        rev: 1,
        updatedAt: now.toISOString(),
      },
      'created',
      [],
    ];
  checkMoves(work.slug, stored.data, data);
  const fields = [...candidacyChanges(stored.data, data), ...scopeChanges(stored, work)];
  if (fields.length === 0) return [stored, 'unchanged', []];
  return [
    { ...stored, state: work.state, tier: work.tier, data, rev: stored.rev + 1, updatedAt: now.toISOString() },
    'updated',
    fields,
  ];
}

/** Field names whose value, confidence or claims changed, plus `positions`. */
function candidacyChanges(before: CandidacyData, after: CandidacyData): string[] {
  const fields = changedKeys(before.fields, after.fields);
  return deepEqual(before.positions, after.positions) ? fields : [...fields, 'positions'];
}

/** Refuses an illegal state move, naming the candidacy, the field and both values. */
function checkMoves(slug: string, before: CandidacyData, after: CandidacyData): void {
  const filing = (d: CandidacyData): FilingStatus | null => d.fields.filingStatus?.value ?? null;
  const ballot = (d: CandidacyData): BallotAccess | null => d.fields.ballotAccess?.value ?? null;
  try {
    assertFilingMove(filing(before), filing(after));
    assertBallotMove(ballot(before), ballot(after), filing(after));
  } catch (err) {
    if (!(err instanceof InvalidParameterError)) throw err;
    throw new InvalidParameterError(err.field ?? '', `${slug}: ${err.message}`, { cause: err });
  }
}

/**
 * Edges change what a node is connected to, so a node gaining or re-dating an edge is
 * reported too: its own event gains the edge kind; a node otherwise unchanged gets an
 * `updated` event naming the edge kinds and the nodes at their other ends.
 */
function addEdgeChanges(changes: NodeChange[], link: readonly EdgeDoc[], nodeOf: (slug: string) => NodeDoc): void {
  const bySlug = new Map(changes.map((c) => [c.slugs[0]!, c]));
  for (const e of link) {
    let c = bySlug.get(e.from);
    if (c?.verb === 'created') continue;
    if (!c) {
      const n = nodeOf(e.from);
      c = { kind: n.kind, verb: 'updated', slugs: [e.from], changedFields: [], rev: n.rev, before: n, after: n };
      bySlug.set(e.from, c);
      changes.push(c);
    }
    if (!c.changedFields.includes(e.kind)) c.changedFields.push(e.kind);
    if (!c.slugs.includes(e.to)) c.slugs.push(e.to);
  }
}
