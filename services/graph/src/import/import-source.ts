import { join } from 'node:path';
import type { ImportSourceRequest, ImportSourceResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { findState, InvalidParameterError, safeRelativePath, topLevelNames, withStagedFiles } from '@civicgraph/kit';
import type { GraphStore } from '../store/graph-store.js';
import { graphImporter, isGraphImportKind, GRAPH_IMPORT_KINDS } from './kinds.js';
import { runImport, type BatchApplier } from './run-import.js';

/** Rejections an answer names (the rest are counted). */
const REASONS = 5;

/**
 * Imports one source's files, as the ImportSource RPC receives them: written to a
 * temporary folder of this process, read by the importer of `kind` and applied through
 * `writer` (the graph's GraphWriter: every change an event in its outbox), then removed.
 */
export async function importSource(
  store: GraphStore,
  writer: BatchApplier,
  req: ImportSourceRequest,
): Promise<ImportSourceResponse> {
  const kind = req.kind;
  if (!isGraphImportKind(kind))
    throw new InvalidParameterError(
      'kind',
      `No importer "${kind}"; the graph's are ${Object.keys(GRAPH_IMPORT_KINDS).join(', ')}.`,
    );
  if (req.files.length === 0) throw new InvalidParameterError('files', 'Send at least one file of the source.');
  req.files.forEach((f, i) => safeRelativePath(f.path, `files[${i}].path`));
  const top = topLevelNames(req.files);
  if (top.length > 1)
    throw new InvalidParameterError(
      'files',
      `The files must share one top-level name (one file or one folder), not ${top.join(', ')}.`,
    );
  const places =
    req.places === undefined
      ? undefined
      : { ...req.places, path: `places/${safeRelativePath(req.places.path, 'places.path')}` };
  if (places !== undefined && kind !== 'openstates-people')
    throw new InvalidParameterError('places', `Only openstates-people reads a places file, not ${kind}.`);
  const exceptStates = checkedStates(kind, req.exceptStates);
  if (req.specialsOnly && kind !== 'results')
    throw new InvalidParameterError('specials_only', `Only results reads special elections alone, not ${kind}.`);
  // The source and the places file in folders of their own, so neither's name can shadow the other's.
  return withStagedFiles(
    [...req.files.map((f) => ({ ...f, path: `source/${f.path}` })), ...(places === undefined ? [] : [places])],
    'files',
    async (dir) => {
      const items = await graphImporter(kind, join(dir, 'source', top[0]!), store, {
        ...(req.sourceDate === '' ? {} : { sourceDate: req.sourceDate }),
        ...(places === undefined ? {} : { places: join(dir, places.path) }),
        ...(exceptStates.length === 0 ? {} : { exceptStates }),
        ...(req.specialsOnly ? { specialsOnly: true } : {}),
      });
      const tally = await runImport(items, writer);
      return {
        created: tally.createdRows,
        updated: tally.updatedRows,
        unchanged: tally.unchangedRows,
        rejected: tally.rejected.length,
        rejectedReasons: tally.rejected.slice(0, REASONS).map((r) => `${r.at}: ${r.reason}`),
        events: tally.events,
      };
    },
  );
}

/** `except_states`: results only, each a state's postal code. */
function checkedStates(kind: string, states: readonly string[]): string[] {
  if (states.length > 0 && kind !== 'results')
    throw new InvalidParameterError('except_states', `Only results skips states, not ${kind}.`);
  states.forEach((s, i) => {
    if (!/^[A-Za-z]{2}$/.test(s) || findState(s) === undefined)
      throw new InvalidParameterError(`except_states[${i}]`, `"${s}" is not a state's postal code.`);
  });
  return states.map((s) => s.toLowerCase());
}
