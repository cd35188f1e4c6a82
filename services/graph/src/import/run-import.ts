import { CivicError } from '@civicgraph/kit';
import type { BatchOutcome } from '../domain/batch-plan.js';
import type { DraftBatch, DraftItem, Rejection } from '../domain/drafts.js';

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
  return { createdRows: 0, updatedRows: 0, unchangedRows: 0, rejected: [], nodes: { created: 0, updated: 0, unchanged: 0 }, events: 0 };
}

/**
 * Feeds an importer's items to the writer one row at a time. A rejected row, or a row the
 * writer refuses (a typed error such as an illegal candidacy move or a missing required
 * field), is recorded with its reason and the import goes on: each row is its own atomic
 * batch, so a refused row leaves nothing half-written. Failures that are not about the row
 * (the store itself failing, a file that cannot be read) end the import.
 */
export async function runImport(items: AsyncIterable<DraftItem>, writer: BatchApplier, progress: (t: ImportTally) => void = () => {}): Promise<ImportTally> {
  const tally = emptyTally();
  for await (const item of items) {
    if ('rejected' in item) {
      tally.rejected.push(item.rejected);
    } else {
      try {
        count(tally, await writer.apply(item.batch));
      } catch (err) {
        if (!(err instanceof CivicError) || err.type !== 'invalid_parameter') throw err;
        tally.rejected.push({ at: item.at, reason: err.field === undefined ? err.message : `${err.field}: ${err.message}` });
      }
    }
    progress(tally);
  }
  return tally;
}

function count(tally: ImportTally, outcome: BatchOutcome): void {
  tally.nodes.created += outcome.created;
  tally.nodes.updated += outcome.updated;
  tally.nodes.unchanged += outcome.unchanged;
  tally.events += outcome.events;
  if (outcome.created > 0) tally.createdRows += 1;
  else if (outcome.updated > 0 || outcome.linked > 0) tally.updatedRows += 1;
  else tally.unchangedRows += 1;
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
