import { basename } from 'node:path';
import { findState, InvalidParameterError, restLevel } from '@civicgraph/kit';
import type { Level, RegionRecord, Validity } from '../domain/region.js';
import { validityProblem } from '../domain/validity.js';
import type { BoundaryStore, LayerChange, LayerKey, LayerReplacement } from '../store/boundary-store.js';
import { countByCode, type RejectCode, type RejectedFeature, type SkippedFeature } from '../store/features.js';
import { regionsFromFeatureCollection } from '../store/geojson-file.js';
import { readBoundaryFile, type BoundaryFileContents } from '../store/readers/read-boundary-file.js';

/** One `civicgraph import boundaries` request. */
export interface BoundaryImport {
  path: string;
  level: Level;
  /**
   * Two-letter state code, any case: the state of features that name none. When given,
   * features naming another state are rejected. Otherwise each state the features name
   * gets its own layer.
   */
  state?: string;
  /** When the map is in force; absent: undated (in force until a dated map of its level and state supersedes it). */
  validity?: Validity;
  /** Property naming a place, school district or precinct's code / name. */
  codeField?: string;
  nameField?: string;
  /** Allows the import to delete any number of a layer's stored versions. */
  replace?: boolean;
  /** Without `replace`, the largest fraction of a layer's stored versions the import may delete (default 0: none). */
  maxDeleteFraction?: number;
  /** Refuses the import when any feature is rejected. */
  strict?: boolean;
  /** Stamped on the versions the import stores (default: now). */
  now?: Date;
}

/** What an import did (or, inside an `ImportRefusedError`, would have done). */
export interface ImportSummary {
  file: string;
  format: string;
  crs: { name: string; reprojected: boolean };
  features: number;
  /** One layer per state the file covers, and what replacing it changed. */
  layers: LayerChange[];
  /** The layers' changes together, by version key (`slug@valid_from`). */
  change: { created: string[]; updated: string[]; deleted: string[]; unchanged: number };
  /** Features that are not districts by design (e.g. `ZZ` water pseudo-districts), with why. */
  skipped: SkippedFeature[];
  /** Features with a fault (geometry that cannot be used or repaired, no state, no code), with why. */
  rejected: RejectedFeature[];
  rejectedByCode: Partial<Record<RejectCode, number>>;
}

/** Phases reported to a progress display. */
export type ImportPhase = 'reading' | 'deriving' | 'storing' | 'done';

/**
 * An import refused as a whole, having changed nothing: the file had no usable feature,
 * `strict` met a rejection, or the import would delete versions it was not allowed to.
 * `field` names the option that decides (`file`, `strict`, `replace`); `summary` says what
 * the import would have done.
 */
export class ImportRefusedError extends InvalidParameterError {
  constructor(field: string, detail: string, readonly summary: ImportSummary) {
    super(field, `${detail} Nothing was changed.`);
  }
}

/**
 * Reads a boundary file (GeoJSON, TopoJSON or Shapefile, reprojected to lon/lat), derives
 * region versions, stamps their validity and source, and replaces one layer per state
 * (level, state, valid_from) in the store, all in one transaction. Nothing is stored unless
 * the whole file was read, it yielded at least one region and every check passed, so a
 * refused or failed import leaves the previous boundaries serving; re-importing the same
 * file changes nothing.
 */
export async function importBoundaries(store: BoundaryStore, req: BoundaryImport, progress: (p: ImportPhase) => void = () => {}): Promise<ImportSummary> {
  const state = normaliseState(req.state);
  const problem = req.validity === undefined ? undefined : validityProblem(req.validity);
  if (problem !== undefined) throw new InvalidParameterError(problem.field, problem.detail);
  const maxDelete = deleteAllowance(req);
  progress('reading');
  const contents = await readBoundaryFile(req.path);
  progress('deriving');
  const { regions, summary } = derive(contents, req, state);
  if (regions.length === 0) throw new ImportRefusedError('file', `${req.path}: no usable feature (${describeLeftOut(summary)}).`, summary);
  if (req.strict === true && summary.rejected.length > 0) {
    throw new ImportRefusedError('strict', `${summary.rejected.length} feature(s) rejected (${describeCodes(summary.rejectedByCode)}); strict mode refuses the import.`, summary);
  }
  progress('storing');
  const stamp = { name: basename(req.path), importedAt: (req.now ?? new Date()).toISOString() };
  const stamped = regions.map((r): RegionRecord => ({ ...r, ...(req.validity === undefined ? {} : { validity: req.validity }), source: stamp }));
  const replacements = layersByState(req.level, req.validity?.from ?? '', stamped);
  const layers = store.replaceLayers(replacements, (changes) => {
    const refusal = changes.map((c) => deletionRefusal(c, maxDelete)).find((r) => r !== undefined);
    if (refusal !== undefined) throw new ImportRefusedError('replace', refusal, { ...summary, ...totals(changes) });
  });
  progress('done');
  return { ...summary, ...totals(layers) };
}

/** Regions, skips and rejections (at their positions in the file), before anything is stored. */
function derive(contents: BoundaryFileContents, req: BoundaryImport, state: string): { regions: RegionRecord[]; summary: ImportSummary } {
  const identity = {
    ...(state === '' ? {} : { state }),
    ...(req.codeField === undefined ? {} : { codeField: req.codeField }),
    ...(req.nameField === undefined ? {} : { nameField: req.nameField }),
  };
  const report = regionsFromFeatureCollection(contents.collection, req.level, identity, req.path);
  // Positions in the file, not in the collection the reader handed on.
  const inFile = <T extends { index: number }>(f: T): T => ({ ...f, index: contents.sourceIndex[f.index] ?? f.index });
  const rejected = [...contents.rejected, ...report.rejected.map(inFile)].sort((a, b) => a.index - b.index);
  const summary: ImportSummary = {
    file: req.path,
    format: contents.format,
    crs: contents.crs,
    features: contents.collection.features.length + contents.rejected.length,
    layers: [],
    change: { created: [], updated: [], deleted: [], unchanged: 0 },
    skipped: report.skipped.map(inFile),
    rejected,
    rejectedByCode: countByCode(rejected),
  };
  return { regions: report.regions, summary };
}

/** One replacement per state the regions lie in, in state order. */
function layersByState(level: Level, validFrom: string, regions: readonly RegionRecord[]): LayerReplacement[] {
  const byState = new Map<string, RegionRecord[]>();
  for (const r of regions) byState.set(r.state, [...(byState.get(r.state) ?? []), r]);
  return [...byState].sort(([a], [b]) => (a < b ? -1 : 1)).map(([state, rs]) => ({ key: { level, state, validFrom }, regions: rs }));
}

function totals(layers: readonly LayerChange[]): Pick<ImportSummary, 'layers' | 'change'> {
  return {
    layers: [...layers],
    change: {
      created: layers.flatMap((l) => l.created),
      updated: layers.flatMap((l) => l.updated),
      deleted: layers.flatMap((l) => l.deleted),
      unchanged: layers.reduce((n, l) => n + l.unchanged, 0),
    },
  };
}

function deleteAllowance(req: BoundaryImport): number {
  if (req.replace === true) return 1;
  const f = req.maxDeleteFraction ?? 0;
  if (!Number.isFinite(f) || f < 0 || f > 1) throw new InvalidParameterError('max_delete_fraction', `max_delete_fraction must be a number from 0 to 1, got ${f}.`);
  return f;
}

/** Why replacing a layer deletes more than allowed, or undefined when it does not. */
function deletionRefusal(change: LayerChange, maxFraction: number): string | undefined {
  const n = change.deleted.length;
  if (n === 0 || n <= maxFraction * change.before) return undefined;
  const shown = change.deleted.slice(0, 5).join(', ') + (n > 5 ? `, and ${n - 5} more` : '');
  const allowed = maxFraction === 0 ? 'deletions need --replace' : `at most ${Math.floor(maxFraction * change.before)} may go without --replace`;
  return `The import would delete ${n} of the ${change.before} stored versions of ${layerName(change.key)} (${shown}); ${allowed}.`;
}

/** `the congressional-district map of NH from 2023-01-03`. */
export function layerName(key: LayerKey): string {
  const state = key.state === '' ? 'the nation' : key.state.toUpperCase();
  return `the ${restLevel(key.level)} map of ${state} ${key.validFrom === '' ? '(undated)' : `from ${key.validFrom}`}`;
}

function describeLeftOut(s: ImportSummary): string {
  const parts = [`${s.features} feature(s) read`];
  if (s.rejected.length > 0) parts.push(`${s.rejected.length} rejected: ${describeCodes(s.rejectedByCode)}`);
  if (s.skipped.length > 0) parts.push(`${s.skipped.length} skipped as no district`);
  return parts.join(', ');
}

function describeCodes(counts: Partial<Record<RejectCode, number>>): string {
  return Object.entries(counts).map(([code, n]) => `${n} ${code}`).join(', ');
}

function normaliseState(code: string | undefined): string {
  if (code === undefined || code === '') return '';
  const info = findState(code.toLowerCase());
  if (info === undefined) throw new InvalidParameterError('state', `"${code}" is not a US state or territory code.`);
  return info.usps.toLowerCase();
}
