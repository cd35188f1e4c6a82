import { join } from 'node:path';
import type { ImportBoundariesRequest, ImportBoundariesResponse } from '@civicgraph/protos/civic/geo/v1/geo';
import { InvalidParameterError, levelFromRest, LEVEL_WORDS, topLevelNames, withStagedFiles } from '@civicgraph/kit';
import type { BoundaryStore } from '../store/boundary-store.js';
import { importBoundaries } from './import-boundaries.js';

/** Rejections an answer names (the rest are counted). */
const REASONS = 5;

/**
 * Imports one boundary map, as the ImportBoundaries RPC receives it: its files written to a
 * temporary folder of this process, each top-level name (a file, or a folder of shapefiles)
 * read as one map by `importBoundaries` into `store`, then removed. Refused, changing
 * nothing, when it would delete stored districts.
 */
export async function importBoundaryFiles(
  store: BoundaryStore,
  req: ImportBoundariesRequest,
): Promise<ImportBoundariesResponse> {
  const level = levelFromRest(req.level);
  if (level === undefined)
    throw new InvalidParameterError(
      'level',
      `"${req.level}" is not a level; the levels are ${LEVEL_WORDS.join(', ')}.`,
    );
  if (req.validFrom === '')
    throw new InvalidParameterError('valid_from', 'Say from which day (YYYY-MM-DD) the districts serve.');
  const validity = {
    from: req.validFrom,
    ...(req.validTo === '' ? {} : { to: req.validTo }),
    ...(req.electionsFrom === '' ? {} : { electionsFrom: req.electionsFrom }),
    ...(req.electionsTo === '' ? {} : { electionsTo: req.electionsTo }),
  };
  return withStagedFiles(req.files, 'files', async (dir) => {
    const summary = await importBoundaries(store, {
      path: topLevelNames(req.files).map((name) => join(dir, name)),
      level,
      validity,
      ...(req.state === '' ? {} : { state: req.state }),
    });
    const c = summary.change;
    return {
      created: c.created.length,
      updated: c.updated.length,
      unchanged: c.unchanged,
      rejected: summary.rejected.length,
      rejectedReasons: summary.rejected.slice(0, REASONS).map((r) => `feature ${r.index}: ${r.reason}`),
      features: summary.features,
    };
  });
}
