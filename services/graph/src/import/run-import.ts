import { CivicError } from '@civicgraph/kit';
import type { BatchOutcome } from '../domain/batch-plan.js';
import type { DraftBatch, DraftItem, Rejection } from '../domain/drafts.js';
import { isRejection } from './shared/batch.js';

/** Applies one batch atomically (the GraphWriter). */
export interface BatchApplier {
  apply(batch: DraftBatch): Promise<BatchOutcome>;
}

/** What an import did, by source row and by node. */
export interface ImportTally {
  /** Rows whose batch created at least one node. */
  createdRows: number;
  /** Rows that changed stored nodes without creating any. */
  updatedRows: number;
  /** Rows that changed nothing. */
  unchangedRows: number;
  rejected: Rejection[];
  nodes: { created: number; updated: number; unchanged: number };
  events: number;
}

export function emptyTally(): ImportTally {
  return {
    createdRows: 0,
    updatedRows: 0,
    unchangedRows: 0,
    rejected: [],
    nodes: { created: 0, updated: 0, unchanged: 0 },
    events: 0,
  };
}

/** Rows committed together; one LMDB sync per group instead of per row. */
export const ROWS_PER_COMMIT = 100;

type Row = { batch: DraftBatch; at: string };

/**
 * Feeds an importer's items to the writer. Rows are committed in groups of up to
 * `rowsPerCommit`, each group one atomic change set, so an import pays one durable commit
 * per group. A group the writer refuses (a typed error such as an illegal candidacy move
 * or a missing required field) is retried row by row, so the refused row is recorded with
 * its reason and every other row is kept: nothing is ever half-written. Failures that are
 * not about a row (the store failing, a file that cannot be read) end the import.
 */
export async function runImport(
  items: AsyncIterable<DraftItem>,
  writer: BatchApplier,
  progress: (t: ImportTally) => void = () => {},
  rowsPerCommit = ROWS_PER_COMMIT,
): Promise<ImportTally> {
  const tally = emptyTally();
  let group: Row[] = [];
  const flush = async () => {
    if (group.length > 0) await applyGroup(group, writer, tally);
    group = [];
    progress(tally);
  };
  for await (const item of items) {
    if (isRejection(item)) {
      tally.rejected.push(item.rejected);
      continue;
    }
    group.push(item);
    if (group.length >= rowsPerCommit) await flush();
  }
  await flush();
  return tally;
}

async function applyGroup(rows: readonly Row[], writer: BatchApplier, tally: ImportTally): Promise<void> {
  if (rows.length > 1) {
    const merged: DraftBatch = { nodes: rows.flatMap((r) => r.batch.nodes), edges: rows.flatMap((r) => r.batch.edges) };
    try {
      countRows(tally, rows, await writer.apply(merged));
      return;
    } catch (err) {
      if (!isRowError(err)) throw err;
    }
  }
  for (const row of rows) {
    try {
      countRows(tally, [row], await writer.apply(row.batch));
    } catch (err) {
      if (!isRowError(err)) throw err;
      const e = err as CivicError;
      tally.rejected.push({ at: row.at, reason: e.field === undefined ? e.message : `${e.field}: ${e.message}` });
    }
  }
}

function isRowError(err: unknown): boolean {
  return err instanceof CivicError && err.type === 'invalid_parameter';
}

/**
 * Attributes a group's outcome to its rows: a node counts for the first row of the group
 * that drafted it. A row is created when it created a node, updated when it changed one
 * (or, alone, linked an edge), unchanged otherwise.
 */
function countRows(tally: ImportTally, rows: readonly Row[], outcome: BatchOutcome): void {
  tally.nodes.created += outcome.created;
  tally.nodes.updated += outcome.updated;
  tally.nodes.unchanged += outcome.unchanged;
  tally.events += outcome.events;
  const bySlug = new Map(outcome.nodes.map((n) => [n.slug, n.outcome]));
  const claimed = new Set<string>();
  for (const row of rows) {
    let created = false;
    let updated = false;
    for (const { slug } of row.batch.nodes) {
      if (claimed.has(slug)) continue;
      claimed.add(slug);
      const o = bySlug.get(slug);
      if (o === 'created') created = true;
      else if (o === 'updated') updated = true;
    }
    if (created) tally.createdRows += 1;
    else if (updated || (rows.length === 1 && outcome.linked > 0)) tally.updatedRows += 1;
    else tally.unchangedRows += 1;
  }
}

/** Rows seen so far. */
export function rowsSeen(t: ImportTally): number {
  return t.createdRows + t.updatedRows + t.unchangedRows + t.rejected.length;
}

/** The human summary the CLI prints. */
export function summaryText(source: string, t: ImportTally): string {
  return [
    `${source}: ${rowsSeen(t)} rows`,
    `rows: ${t.createdRows} created, ${t.updatedRows} updated, ${t.unchangedRows} unchanged, ${t.rejected.length} rejected`,
    `nodes: ${t.nodes.created} created, ${t.nodes.updated} updated, ${t.nodes.unchanged} unchanged; ${t.events} events`,
    ...t.rejected.slice(0, 50).map((r) => `  rejected ${r.at}: ${r.reason}`),
    ...(t.rejected.length > 50 ? [`  … and ${t.rejected.length - 50} more rejections (--json lists them all)`] : []),
  ].join('\n');
}
