import { InvalidParameterError, NotFoundError } from '@civicgraph/kit';
import { isEdgeKind, type EdgeKind } from '../model/kinds.js';
import {
  edgeId,
  type BallotAccess,
  type CandidacyData,
  type EdgeDoc,
  type FilingStatus,
  type NodeDoc,
} from '../model/nodes.js';
import { RevConflictError, type ChangeSet, type GraphStore } from '../store/graph-store.js';
import {
  citedProvenance,
  plannedEdges,
  planBatch,
  slugsToRead,
  type BatchOutcome,
  type NodeOutcome,
  type Plan,
  type Snapshot,
} from './batch-plan.js';
import { assertBallotMove, assertFilingMove } from './candidacy-states.js';
import { checkBatch } from './draft-checks.js';
import type { CandidacyDraft, DraftBatch } from './drafts.js';

export type { BatchOutcome, NodeOutcome, Outcome } from './batch-plan.js';

/** Options for {@link GraphWriter}. */
export interface GraphWriterOptions {
  store: GraphStore;
  /** Environment word of event subjects: `civic.<env>.<kind>.<verb>`. */
  env: string;
  /** Clock for `updatedAt`, event times and confidence staleness. Default: the system clock. */
  now?: () => Date;
  /** Re-reads and retries after a rev conflict (another writer got there first). Default 3. */
  maxRetries?: number;
}

/** An explicit candidacy state move: the new value of one or both state fields. */
export interface StateMove {
  filingStatus?: FilingStatus;
  ballotAccess?: BallotAccess;
}

/**
 * The one way changes reach the graph: drafts in, one conditional change set out, with an
 * event per created or updated node committed in the same write (the outbox). Reads what
 * is stored, plans the change (batch-plan.ts), commits it, and on a rev conflict reads
 * again and re-plans. A batch that brings nothing new writes nothing and emits nothing.
 */
export class GraphWriter {
  private readonly store: GraphStore;
  private readonly env: string;
  private readonly now: () => Date;
  private readonly maxRetries: number;

  constructor(options: GraphWriterOptions) {
    this.store = options.store;
    this.env = options.env;
    this.now = options.now ?? (() => new Date());
    this.maxRetries = options.maxRetries ?? 3;
  }

  /** Applies a batch atomically; throws InvalidParameterError (nothing written) on bad input or an illegal state move. */
  async apply(batch: DraftBatch): Promise<BatchOutcome> {
    return (await this.commitPlanned(batch)).outcome;
  }

  /**
   * Moves a candidacy's filing status and/or ballot access, as a claim backed by the
   * stored provenance record `provenance` (who says so). Refused, with an error naming
   * the field and both values, when the move is illegal, or when other sources outweigh
   * the claim so the held value would not move. An accepted move is an `updated` event.
   */
  async moveCandidacy(slug: string, move: StateMove, provenance: string): Promise<NodeOutcome> {
    const claims = Object.fromEntries(Object.entries(move).filter(([, v]) => v !== undefined)) as StateMove;
    if (Object.keys(claims).length === 0)
      throw new InvalidParameterError('filing_status', `${slug}: a move names a filingStatus, a ballotAccess or both`);
    const stored = await this.store.getNode<'candidacy'>(slug);
    if (stored?.kind !== 'candidacy') throw new NotFoundError(`candidacy ${slug} does not exist`, { field: 'slug' });
    const draft: CandidacyDraft = {
      kind: 'candidacy',
      slug,
      state: stored.state,
      tier: stored.tier,
      claims,
      provenance,
    };
    const plan = await this.commitPlanned({ nodes: [draft], edges: [] }, (p, snap) =>
      checkExplicitMove(slug, claims, snap, p),
    );
    return plan.outcome.nodes[0]!;
  }

  /** Reads, plans, commits; re-reads and re-plans after a rev conflict. `check` may veto a plan. */
  private async commitPlanned(batch: DraftBatch, check?: (plan: Plan, snap: Snapshot) => void): Promise<Plan> {
    // Bad drafts are refused before the store is asked anything about them.
    checkBatch(batch);
    for (let attempt = 0; ; attempt++) {
      const snap = await this.read(batch);
      const plan = planBatch(batch, snap, { env: this.env, now: this.now() });
      check?.(plan, snap);
      if (isEmpty(plan.changes)) return plan;
      try {
        await this.store.commit(plan.changes);
        return plan;
      } catch (err) {
        if (!(err instanceof RevConflictError) || attempt >= this.maxRetries) throw err;
      }
    }
  }

  /** What planning needs from the store: drafted nodes, provenance they cite, edges already present. */
  private async read(batch: DraftBatch): Promise<Snapshot> {
    const nodes = new Map((await this.store.getNodes(slugsToRead(batch))).map((n) => [n.slug, n] as const));
    const cited = citedProvenance(nodes.values()).filter((s) => !nodes.has(s));
    if (cited.length > 0) for (const n of await this.store.getNodes(cited)) nodes.set(n.slug, n);
    return { nodes, edges: await this.readEdges(batch, nodes) };
  }

  /** Stored out-edges of each (from, kind) the batch links, so present edges are not written again. */
  private async readEdges(batch: DraftBatch, nodes: ReadonlyMap<string, NodeDoc>): Promise<Map<string, EdgeDoc>> {
    const pairs = new Map<string, [string, EdgeKind]>();
    for (const e of plannedEdges(batch)) {
      if (nodes.has(e.from) && isEdgeKind(String(e.kind))) pairs.set(`${e.kind}|${e.from}`, [e.from, e.kind]);
    }
    const edges = new Map<string, EdgeDoc>();
    for (const [from, kind] of pairs.values())
      for (const e of await this.store.edges(from, 'out', kind)) edges.set(edgeId(e), e);
    return edges;
  }
}

function isEmpty(c: ChangeSet): boolean {
  return (
    c.put.length === 0 && c.remove.length === 0 && c.link.length === 0 && c.unlink.length === 0 && c.events.length === 0
  );
}

/**
 * An explicit move must be legal from the value held now, and must actually take: a
 * claim outweighed by other sources would leave the state where it was, which the caller
 * would otherwise read as success.
 */
function checkExplicitMove(slug: string, move: StateMove, snap: Snapshot, plan: Plan): void {
  const before = (snap.nodes.get(slug) as NodeDoc<'candidacy'>).data;
  const after = (plan.after.get(slug) as NodeDoc<'candidacy'>).data;
  const filing = (d: CandidacyData): FilingStatus | null => d.fields.filingStatus?.value ?? null;
  const ballot = (d: CandidacyData): BallotAccess | null => d.fields.ballotAccess?.value ?? null;
  try {
    if (move.filingStatus !== undefined) assertFilingMove(filing(before), move.filingStatus);
    if (move.ballotAccess !== undefined)
      assertBallotMove(ballot(before), move.ballotAccess, move.filingStatus ?? filing(before));
  } catch (err) {
    if (err instanceof InvalidParameterError)
      throw new InvalidParameterError(err.field ?? '', `${slug}: ${err.message}`, { cause: err });
    throw err;
  }
  if (move.filingStatus !== undefined && filing(after) !== move.filingStatus)
    throw outweighed(slug, 'filing_status', filing(after), move.filingStatus);
  if (move.ballotAccess !== undefined && ballot(after) !== move.ballotAccess)
    throw outweighed(slug, 'ballot_access', ballot(after), move.ballotAccess);
}

function outweighed(slug: string, field: string, held: string | null, wanted: string): InvalidParameterError {
  return new InvalidParameterError(
    field,
    `${slug}: ${field} cannot move from ${held ?? 'null (unknown)'} to ${wanted}: the sources stating ${held ?? 'null'} outweigh this one; nothing was written`,
  );
}
