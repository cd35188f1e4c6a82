import type { CivicEvent } from '@civicgraph/kit';
import type { CandidacyData, NodeDoc, ProvenanceData } from '../model/nodes.js';
import { RevConflictError, type GraphStore } from '../store/graph-store.js';
import { claimsOf, resolveCandidacy } from './claims.js';
import { deepEqual } from './diff.js';
import { nodeEvent } from './events.js';

/** What one re-scoring pass did. */
export interface RescoreOutcome {
  /** Candidacies read. */
  read: number;
  /** Candidacies whose confidence moved by at least the threshold, written with an event. */
  updated: number;
  /** Candidacies left for the next pass: re-resolving would change a value (a source's word now outweighs another's), or another writer got there first. */
  skipped: number;
}

export interface RescoreOptions {
  store: GraphStore;
  env: string;
  now: Date;
  /** Smallest change of a candidacy's confidence worth a write and an event (default 0.005). */
  minDelta?: number;
}

const PAGE = 500;

/**
 * Confidence decays as readings age (confidence.ts: half-life of a year), but a write
 * re-scores only what it touches. This pass re-scores every stored candidacy as of `now`:
 * each whose confidence moved by `minDelta` or more is written, with a `candidacy.updated`
 * event whose only changed field is `confidence`. Values are never changed here: a
 * candidacy whose re-resolution would pick another value waits for its sources' next
 * write, which re-plans it with the state-move checks.
 */
export async function rescoreCandidacies(options: RescoreOptions): Promise<RescoreOutcome> {
  const { store, env, now } = options;
  const minDelta = options.minDelta ?? 0.005;
  const provenance = new Map<string, ProvenanceData | undefined>();
  const outcome: RescoreOutcome = { read: 0, updated: 0, skipped: 0 };
  let after: string | undefined;
  do {
    const page = await store.query({ kind: 'candidacy', limit: PAGE, ...(after === undefined ? {} : { after }) });
    const nodes = page.nodes as NodeDoc<'candidacy'>[];
    outcome.read += nodes.length;
    await loadProvenance(store, nodes, provenance);
    const put: { node: NodeDoc; expectRev: number }[] = [];
    const events: CivicEvent[] = [];
    for (const node of nodes) {
      const next = resolveCandidacy(node.slug, claimsOf(node.data), node.data.positions, (s) => provenance.get(s), now);
      if (!sameValues(node.data, next)) {
        outcome.skipped += 1;
        continue;
      }
      if (Math.abs(next.confidence - node.data.confidence) < minDelta) continue;
      const updated: NodeDoc<'candidacy'> = { ...node, data: next, rev: node.rev + 1, updatedAt: now.toISOString() };
      put.push({ node: updated, expectRev: node.rev });
      // Only confidence moved (its fields' with it): no value did, so no field-change event type applies.
      events.push(
        nodeEvent(
          env,
          {
            kind: 'candidacy',
            verb: 'updated',
            slugs: [node.slug],
            changedFields: ['confidence'],
            rev: updated.rev,
            before: node,
            after: updated,
          },
          now,
        ),
      );
    }
    outcome.updated += await commitOrSkip(store, put, events, outcome);
    after = page.next;
  } while (after !== undefined);
  return outcome;
}

async function loadProvenance(
  store: GraphStore,
  nodes: readonly NodeDoc<'candidacy'>[],
  cache: Map<string, ProvenanceData | undefined>,
): Promise<void> {
  const wanted = new Set<string>();
  for (const n of nodes)
    for (const claims of Object.values(claimsOf(n.data)))
      for (const c of claims ?? []) if (!cache.has(c.provenance)) wanted.add(c.provenance);
  if (wanted.size === 0) return;
  for (const slug of wanted) cache.set(slug, undefined);
  for (const p of await store.getNodes([...wanted]))
    if (p.kind === 'provenance') cache.set(p.slug, p.data as ProvenanceData);
}

type FieldMap = Record<string, { value: unknown; confidence: number } | undefined>;
const fieldsOf = (d: CandidacyData): FieldMap => d.fields as unknown as FieldMap;

function sameValues(a: CandidacyData, b: CandidacyData): boolean {
  const keys = new Set([...Object.keys(a.fields), ...Object.keys(b.fields)]);
  return [...keys].every((k) => deepEqual(fieldsOf(a)[k]?.value, fieldsOf(b)[k]?.value));
}

/** Commits a page's updates at once; a page another writer touched meanwhile is left for the next pass. */
async function commitOrSkip(
  store: GraphStore,
  put: { node: NodeDoc; expectRev: number }[],
  events: CivicEvent[],
  outcome: RescoreOutcome,
): Promise<number> {
  if (put.length === 0) return 0;
  try {
    await store.commit({ put, remove: [], link: [], unlink: [], events });
    return put.length;
  } catch (err) {
    if (!(err instanceof RevConflictError)) throw err;
    outcome.skipped += put.length;
    return 0;
  }
}
