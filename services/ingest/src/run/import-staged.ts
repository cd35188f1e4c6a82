import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportBoundariesRequest, ImportBoundariesResponse } from '@civicgraph/protos/civic/geo/v1/geo';
import type { ImportSourceRequest, ImportSourceResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import type { Source } from '../registry.js';
import type { Origin } from '../fetch/fetch-file.js';
import type { RowCounts } from '../state/ingest-store.js';

/** The graph service's import (its ImportSource RPC): the graph's store stays the graph's. */
export interface GraphImport {
  importSource(req: ImportSourceRequest): Promise<ImportSourceResponse>;
}

/** The geo service's import (its ImportBoundaries RPC): the boundary store stays geo's. */
export interface BoundaryImport {
  importBoundaries(req: ImportBoundariesRequest): Promise<ImportBoundariesResponse>;
}

/** Where an import goes: the services that own the data, and where ingest keeps its own copies. */
export interface ImportTargets {
  graph: GraphImport;
  boundaries: BoundaryImport;
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

/** How an import is sent. */
export interface ImportOptions {
  /**
   * A boundary map is answered once stored, and served with the next map that waits (geo's
   * `serve_later`): for every map of a pass but its last, so the index is built once.
   */
  serveLater?: boolean;
}

/**
 * Sends a source's fetched files (by the names they are staged under) to the service that
 * owns its data: a boundary map to the geo service (refused, changing nothing, if it would
 * delete stored districts; served once it answers), anything else to the graph service,
 * whose writer makes every change an event in its outbox. `sourceDate` dates the source
 * when it carries no date of its own.
 */
export async function importStaged(
  source: Source,
  files: ReadonlyMap<string, Uint8Array>,
  sourceDate: string | undefined,
  targets: ImportTargets,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  // Buffer views of the fetched bytes (what ts-proto's bytes fields take), not copies.
  const staged = [...files].map(([path, bytes]) => ({
    path,
    content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  }));
  const spec = source.import;
  if (spec.kind === 'boundaries') {
    const summary = await targets.boundaries.importBoundaries({
      files: staged,
      level: spec.level,
      validFrom: spec.validFrom,
      validTo: spec.validTo ?? '',
      electionsFrom: spec.electionsFrom ?? '',
      electionsTo: spec.electionsTo ?? '',
      state: spec.state ?? '',
      serveLater: options.serveLater ?? false,
    });
    return {
      rows: {
        created: summary.created,
        updated: summary.updated,
        unchanged: summary.unchanged,
        rejected: summary.rejected,
      },
      events: 0,
      rejected: summary.rejectedReasons,
    };
  }
  const places =
    spec.options?.places === undefined
      ? undefined
      : await otherSourceFile(source, spec.options.places, targets.filesDir);
  const tally = await targets.graph.importSource({
    kind: spec.kind,
    files: staged,
    sourceDate: sourceDate ?? '',
    ...(places === undefined ? {} : { places }),
    exceptStates: [...(spec.options?.exceptStates ?? [])],
    specialsOnly: spec.options?.specialsOnly === true,
  });
  return {
    rows: { created: tally.created, updated: tally.updated, unchanged: tally.unchanged, rejected: tally.rejected },
    events: tally.events,
    rejected: tally.rejectedReasons,
  };
}

/** `ocd-division-ids:country-us/…/us_census_places.csv` → that file of the other source's current copy. */
async function otherSourceFile(
  source: Source,
  ref: string,
  filesDir: string,
): Promise<{ path: string; content: Buffer }> {
  const [id, name] = ref.split(':') as [string, string];
  try {
    return { path: name, content: await readFile(join(filesDir, id, name)) };
  } catch (err) {
    throw new Error(
      `${source.id} reads ${name} of ${id}, which has no current copy (${(err as NodeJS.ErrnoException).code ?? String(err)}): run ${id} first`,
      { cause: err },
    );
  }
}
