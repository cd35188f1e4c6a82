import { findState, InvalidParameterError } from '@civicgraph/kit';
import type { Level, RegionRecord, Validity } from '../domain/region.js';
import { validityProblem } from '../domain/validity.js';
import type { BoundaryStore, LayerChange } from '../store/boundary-store.js';
import { regionsFromFeatureCollection, type SkippedFeature } from '../store/geojson-file.js';
import { readBoundaryFile } from '../store/readers/read-boundary-file.js';

/** One `civicgraph import boundaries` request. */
export interface BoundaryImport {
  path: string;
  level: Level;
  /** Two-letter state code, any case; required for files whose features name no state. */
  state?: string;
  validity?: Validity;
  /** Property naming a place, school district or precinct's code / name. */
  codeField?: string;
  nameField?: string;
}

/** What an import did, for the command's summary. */
export interface ImportSummary {
  file: string;
  format: string;
  crs: { name: string; reprojected: boolean };
  features: number;
  change: LayerChange;
  /** Features that are not districts (e.g. `ZZ` water pseudo-districts), with why. */
  skipped: SkippedFeature[];
  /** Features whose geometry could not be used or repaired, with why. */
  rejected: SkippedFeature[];
}

/** Phases reported to a progress display. */
export type ImportPhase = 'reading' | 'deriving' | 'storing' | 'done';

/**
 * Reads a boundary file (GeoJSON, TopoJSON or Shapefile, reprojected to lon/lat), derives
 * region versions, stamps their validity and replaces the layer (level, state, valid_from)
 * in the store in one transaction. Nothing is stored unless the whole file was read, so a
 * failed import leaves the previous boundaries serving; re-importing the same file
 * changes nothing.
 */
export async function importBoundaries(store: BoundaryStore, req: BoundaryImport, progress: (p: ImportPhase) => void = () => {}): Promise<ImportSummary> {
  const state = normaliseState(req.state);
  const problem = req.validity === undefined ? undefined : validityProblem(req.validity);
  if (problem !== undefined) throw new InvalidParameterError(problem.field, problem.detail);
  progress('reading');
  const contents = await readBoundaryFile(req.path);
  progress('deriving');
  const identity = {
    ...(state === '' ? {} : { state }),
    ...(req.codeField === undefined ? {} : { codeField: req.codeField }),
    ...(req.nameField === undefined ? {} : { nameField: req.nameField }),
  };
  const report = regionsFromFeatureCollection(contents.collection, req.level, identity, req.path);
  const regions = report.regions.map((r): RegionRecord => (req.validity === undefined ? r : { ...r, validity: req.validity }));
  progress('storing');
  const change = store.replaceLayer({ level: req.level, state, validFrom: req.validity?.from ?? '' }, regions);
  progress('done');
  return {
    file: req.path,
    format: contents.format,
    crs: contents.crs,
    features: contents.collection.features.length + contents.rejected.length,
    change,
    // Positions in the file, not in the collection the reader handed on.
    skipped: report.skipped.map((f) => ({ ...f, index: contents.sourceIndex[f.index] ?? f.index })),
    rejected: contents.rejected,
  };
}

function normaliseState(code: string | undefined): string {
  if (code === undefined || code === '') return '';
  const info = findState(code.toLowerCase());
  if (info === undefined) throw new InvalidParameterError('state', `"${code}" is not a US state or territory code.`);
  return info.usps.toLowerCase();
}
