import type { CivicEvent } from '@civicgraph/kit';
import type { Database } from 'arangojs';
import type { AqlQuery } from 'arangojs/aql';
import type { Transaction } from 'arangojs/transactions';
import { checkRevs, storedNode, validateChangeSet } from '../change-set.js';
import type { ChangeSet } from '../graph-store.js';
import { toStoredEdge, toStoredNode } from './arango-documents.js';
import { edgeKey, tryEncodeKey } from './arango-keys.js';
import {
  ackEventsAql,
  appendOutboxAql,
  currentRevsAql,
  linkAql,
  outboxEntries,
  putNodesAql,
  removeNodesAql,
  removeTouchingEdgesAql,
  reserveSeqAql,
  unlinkAql,
  type ArangoCollections,
} from './statements-aql.js';

/** How long a commit waits for another's lock before failing, in seconds (server default: 900). */
const LOCK_TIMEOUT_S = 60;

/**
 * `GraphStore.commit` as one ArangoDB stream transaction. The meta collection (the outbox
 * counter) is locked exclusively, so commits, from this process or any other, run one at
 * a time: the revs read at the start cannot change before the writes, and seqs are handed
 * out in commit order. Nodes, edges and the outbox are written in the same transaction,
 * so a change and its events are stored together or not at all.
 *
 * Order (store/change-set.ts, shared by every adapter): check every rev, then puts,
 * removes with their edges, unlinks, links, and last the events.
 */
export async function commitChangeSet(db: Database, c: ArangoCollections, changes: ChangeSet): Promise<void> {
  validateChangeSet(changes);
  const steps = commitStatements(c, changes);
  if (isEmpty(changes)) return;
  const trx = await db.beginTransaction(
    { exclusive: [c.meta], write: [c.nodes, c.edges, c.outbox] },
    { lockTimeout: LOCK_TIMEOUT_S },
  );
  try {
    const keys = encodable([...changes.put.map((p) => p.node.slug), ...changes.remove.map((r) => r.slug)]);
    const revs = keys.length === 0 ? {} : await one<Record<string, number>>(db, trx, currentRevsAql(c.nodes, keys));
    checkRevs(changes, (slug) => revs?.[tryEncodeKey(slug) ?? ''] ?? 0);
    for (const step of steps) await run(db, trx, step);
    if (changes.events.length > 0) await appendEvents(db, trx, c, changes.events);
    await trx.commit();
  } catch (err) {
    await trx.abort().catch(() => undefined);
    throw err;
  }
}

/**
 * The write statements of a change set, in the shared order, built before the transaction
 * starts so a slug that cannot be stored fails without a round trip. Events are not here:
 * their seqs come from the counter inside the transaction.
 */
export function commitStatements(c: ArangoCollections, changes: ChangeSet): AqlQuery[] {
  const steps: AqlQuery[] = [];
  if (changes.put.length > 0)
    steps.push(
      putNodesAql(
        c.nodes,
        changes.put.map((p) => toStoredNode(storedNode(p.node, p.expectRev))),
      ),
    );
  const removed = encodable(changes.remove.map((r) => r.slug));
  if (removed.length > 0) {
    steps.push(
      removeTouchingEdgesAql(
        c.edges,
        removed.map((key) => `${c.nodes.name}/${key}`),
      ),
    );
    steps.push(removeNodesAql(c.nodes, removed));
  }
  if (changes.unlink.length > 0) steps.push(unlinkAql(c.edges, changes.unlink.map(edgeKey)));
  if (changes.link.length > 0)
    steps.push(
      linkAql(
        c.edges,
        changes.link.map((e) => toStoredEdge(e, c.nodes.name)),
      ),
    );
  return steps;
}

/**
 * Events get the next seqs from the counter. An event id already pending is replaced and
 * moves to the end (as in the other adapters): the relay publishes each id once.
 */
async function appendEvents(
  db: Database,
  trx: Transaction,
  c: ArangoCollections,
  events: readonly CivicEvent[],
): Promise<void> {
  const lastSeq = await one<number>(db, trx, reserveSeqAql(c.meta, events.length));
  if (typeof lastSeq !== 'number') throw new Error(`the outbox counter in ${c.meta.name} did not return a number`);
  const entries = outboxEntries(events, lastSeq);
  const latest = new Map(entries.map((e) => [e.event.id, e]));
  await run(db, trx, ackEventsAql(c.outbox, [...latest.keys()]));
  await run(
    db,
    trx,
    appendOutboxAql(
      c.outbox,
      [...latest.values()].sort((a, b) => a.seq - b.seq),
    ),
  );
}

function isEmpty(c: ChangeSet): boolean {
  return c.put.length + c.remove.length + c.link.length + c.unlink.length + c.events.length === 0;
}

/** Keys of the slugs that can be stored at all; the others are absent by definition. */
function encodable(slugs: readonly string[]): string[] {
  return slugs.flatMap((s) => tryEncodeKey(s) ?? []);
}

/**
 * Runs one statement inside the transaction. Results are read from the first batch only:
 * every statement here returns at most one row, and a later batch would be fetched
 * outside the transaction.
 */
async function run(db: Database, trx: Transaction, q: AqlQuery): Promise<unknown[]> {
  const cursor = await trx.step(() => db.query(q));
  return cursor.all();
}

async function one<T>(db: Database, trx: Transaction, q: AqlQuery): Promise<T | undefined> {
  const [row] = await run(db, trx, q);
  return row as T | undefined;
}
