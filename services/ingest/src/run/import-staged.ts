import { join } from 'node:path';
import { importBoundaries, type BoundaryStore } from '@civicgraph/geo';
import { graphImporter, runImport, type GraphStore, type GraphWriter } from '@civicgraph/graph';
import { levelFromRest } from '@civicgraph/kit';
import { stagedName, type Source } from '../registry.js';
import type { Origin } from '../fetch/fetch-file.js';
import type { RowCounts } from '../state/ingest-store.js';

/** Where an import writes: the election graph and the boundary store. */
export interface ImportTargets {
  graph: { store: GraphStore; writer: GraphWriter };
  boundaries: BoundaryStore;
  /** Where each source's current files are kept (another source's file is named `<source id>:<name>`). */
  filesDir: string;
  /** Where sources are read from (it decides the names files are staged under). */
  origin: Origin;
}

/** What an import did. */
export interface ImportOutcome {
  rows: RowCounts;
  events: number;
  /** Rejections, as `where: why`, the first few. */
  rejected: string[];
}

/**
 * Runs a source's importer on its staged files (`dir`): the graph importers through the
 * same GraphWriter as `civicgraph import` (so every change is an event in the outbox), a
 * boundary map through `importBoundaries` (refused, changing nothing, if it would delete
 * stored districts). `sourceDate` dates the source when it carries no date of its own.
 */
export async function importStaged(source: Source, dir: string, sourceDate: string | undefined, targets: ImportTargets, onRows: (rows: number) => void): Promise<ImportOutcome> {
  const path = join(dir, entryName(source, targets.origin));
  const spec = source.import;
  if (spec.kind === 'boundaries') {
    const level = levelFromRest(spec.level);
    if (level === undefined) throw new Error(`source ${source.id}: unknown level ${spec.level}`);
    const summary = await importBoundaries(targets.boundaries, {
      path,
      level,
      validity: {
        from: spec.validFrom,
        ...(spec.validTo === undefined ? {} : { to: spec.validTo }),
        ...(spec.electionsFrom === undefined ? {} : { electionsFrom: spec.electionsFrom }),
        ...(spec.electionsTo === undefined ? {} : { electionsTo: spec.electionsTo }),
      },
      ...(spec.state === undefined ? {} : { state: spec.state }),
    });
    const c = summary.change;
    onRows(summary.features);
    return { rows: { created: c.created.length, updated: c.updated.length, unchanged: c.unchanged, rejected: summary.rejected.length }, events: 0, rejected: summary.rejected.slice(0, 5).map((r) => `feature ${r.index}: ${r.reason}`) };
  }
  const places = spec.options?.places === undefined ? undefined : otherSourceFile(spec.options.places, targets.filesDir);
  const items = await graphImporter(spec.kind, path, targets.graph.store, { ...(sourceDate === undefined ? {} : { sourceDate }), ...(places === undefined ? {} : { places }) });
  const tally = await runImport(items, targets.graph.writer, (t) => onRows(t.createdRows + t.updatedRows + t.unchangedRows + t.rejected.length));
  return {
    rows: { created: tally.createdRows, updated: tally.updatedRows, unchanged: tally.unchangedRows, rejected: tally.rejected.length },
    events: tally.events,
    rejected: tally.rejected.slice(0, 5).map((r) => `${r.at}: ${r.reason}`),
  };
}

/** What the importer is given: the folder of a folder source, the top folder or file of a file source. */
export function entryName(source: Source, origin: Origin): string {
  if (source.tree !== undefined) return source.tree.name;
  return stagedName(source.files[0]!, origin).split('/')[0]!;
}

/** `ocd-division-ids:country-us/…/us_census_places.csv` → that source's current copy of the file. */
function otherSourceFile(ref: string, filesDir: string): string {
  const [id, name] = ref.split(':');
  return join(filesDir, id!, name!);
}
