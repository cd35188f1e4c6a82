import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { findState, InvalidParameterError, restLevel } from '@civicgraph/kit';
import { scaleFromName, type Level, type RegionRecord, type Validity } from '../domain/region.js';
import { validityProblem } from '../domain/validity.js';
import {
  layerId,
  type BoundaryStore,
  type LayerChange,
  type LayerKey,
  type LayerReplacement,
} from '../store/boundary-store.js';
import { countByCode, type RejectCode, type RejectedFeature, type SkippedFeature } from '../store/features.js';
import { regionsFromFeatureCollection } from '../store/geojson-file.js';
import { readBoundaryFile, type BoundaryFileContents } from '../store/readers/read-boundary-file.js';

/** One `civicgraph import boundaries` request. */
export interface BoundaryImport {
  /**
   * A boundary file, a folder of them (its `.shp`, `.zip`, `.geojson`, `.json` and
   * `.topojson` files, by name), or a list of either: all imported as one map, in one
   * transaction.
   */
  path: string | readonly string[];
  level: Level;
  /**
   * Two-letter state code, any case: the state of features that name none. When given,
   * features naming another state are rejected. Otherwise each state the features name
   * gets its own layer.
   */
  state?: string;
  /** When the map is in force; absent: undated (in force until a dated map of its level and state supersedes it). */
  validity?: Validity;
  /**
   * Scale denominator of a generalised (cartographic) map; absent: the one each file's name
   * states (`cb_2024_us_cd119_20m` → 20,000,000), else full resolution.
   */
  scale?: number;
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

/** One file of an import as read. */
export interface FileReport {
  file: string;
  format: string;
  crs: { name: string; reprojected: boolean };
  features: number;
  /** Scale denominator stamped on its versions; 0 for full resolution. */
  scale: number;
}

/** What an import did (or, inside an `ImportRefusedError`, would have done). */
export interface ImportSummary {
  files: FileReport[];
  /** Features read over all files. */
  features: number;
  /** One layer per state the files cover, and what replacing it changed. */
  layers: LayerChange[];
  /** The layers' changes together, by version key (`slug@valid_from`). */
  change: { created: string[]; updated: string[]; deleted: string[]; unchanged: number };
  /** Features that are not districts by design (e.g. `ZZ` water pseudo-districts), with why. */
  skipped: (SkippedFeature & { file: string })[];
  /** Features with a fault (geometry that cannot be used or repaired, no state, no code), with why. */
  rejected: (RejectedFeature & { file: string })[];
  rejectedByCode: Partial<Record<RejectCode, number>>;
}

/** Phases reported to a progress display, with the file being read (1-based, of `files`). */
export interface ImportProgress {
  phase: 'reading' | 'storing' | 'done';
  file: number;
  files: number;
  path: string;
}

/**
 * An import refused as a whole, having changed nothing: the file had no usable feature,
 * `strict` met a rejection, or the import would delete versions it was not allowed to.
 * `field` names the option that decides (`file`, `strict`, `replace`); `summary` says what
 * the import would have done.
 */
export class ImportRefusedError extends InvalidParameterError {
  constructor(
    field: string,
    detail: string,
    readonly summary: ImportSummary,
  ) {
    super(field, `${detail} Nothing was changed.`);
  }
}

/** Extensions of the boundary files a folder import reads (shapefile sidecars are read beside their `.shp`). */
const BOUNDARY_EXTENSIONS = new Set(['.shp', '.zip', '.geojson', '.json', '.topojson']);

/**
 * Reads boundary files (GeoJSON, TopoJSON or Shapefile, reprojected to lon/lat), derives
 * region versions, stamps their validity, source and scale, and replaces one layer per
 * state (level, state, valid_from) in the store, all in one transaction. Nothing is stored
 * unless every file was read, they yielded at least one region and every check passed, so
 * a refused or failed import leaves the previous boundaries serving; re-importing the same
 * files changes nothing.
 */
export async function importBoundaries(
  store: BoundaryStore,
  req: BoundaryImport,
  progress: (p: ImportProgress) => void = () => {},
): Promise<ImportSummary> {
  const state = normaliseState(req.state);
  const problem = req.validity === undefined ? undefined : validityProblem(req.validity);
  if (problem !== undefined) throw new InvalidParameterError(problem.field, problem.detail);
  if (req.scale !== undefined && !(Number.isInteger(req.scale) && req.scale > 0)) {
    throw new InvalidParameterError(
      'scale',
      `scale must be a positive integer denominator (20000000 for a 1:20M map), got ${req.scale}.`,
    );
  }
  const maxDelete = deleteAllowance(req);
  const paths = await expandPaths(typeof req.path === 'string' ? [req.path] : req.path);
  const importedAt = (req.now ?? new Date()).toISOString();
  const regions: RegionRecord[] = [];
  const summary = emptySummary();
  for (const [i, path] of paths.entries()) {
    progress({ phase: 'reading', file: i + 1, files: paths.length, path });
    const contents = await readBoundaryFile(path);
    const scale = req.scale ?? scaleFromName(basename(path)) ?? 0;
    const derived = derive(contents, req, state, path);
    addFile(
      summary,
      { file: path, format: contents.format, crs: contents.crs, features: derived.features, scale },
      derived,
    );
    const source = { name: basename(path), importedAt, scale };
    for (const r of derived.regions)
      regions.push({ ...r, ...(req.validity === undefined ? {} : { validity: req.validity }), source });
  }
  if (regions.length === 0)
    throw new ImportRefusedError(
      'file',
      `${paths.join(', ')}: no usable feature (${describeLeftOut(summary)}).`,
      summary,
    );
  if (req.strict === true && summary.rejected.length > 0) {
    throw new ImportRefusedError(
      'strict',
      `${summary.rejected.length} feature(s) rejected (${describeCodes(summary.rejectedByCode)}); strict mode refuses the import.`,
      summary,
    );
  }
  const twice = duplicateSlug(regions);
  if (twice !== undefined)
    throw new ImportRefusedError(
      'file',
      `${twice.slug} comes from both ${twice.files.join(' and ')}; import one map per level and state.`,
      summary,
    );
  progress({ phase: 'storing', file: paths.length, files: paths.length, path: paths[paths.length - 1]! });
  const replacements = layersByState(req.level, req.validity?.from ?? '', regions);
  const layers = store.replaceLayers(replacements, (changes) => {
    const refusal = changes.map((c) => deletionRefusal(c, maxDelete)).find((r) => r !== undefined);
    if (refusal !== undefined) throw new ImportRefusedError('replace', refusal, { ...summary, ...totals(changes) });
  });
  progress({ phase: 'done', file: paths.length, files: paths.length, path: paths[paths.length - 1]! });
  return { ...summary, ...totals(layers) };
}

/** Files as named, and each folder's boundary files by name; a folder holding none is an error. */
async function expandPaths(paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0)
    throw new InvalidParameterError('file', 'Name at least one boundary file or folder to import.');
  const out: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory() !== true) {
      out.push(path);
      continue;
    }
    const names = (await readdir(path)).filter((n) => BOUNDARY_EXTENSIONS.has(extname(n).toLowerCase())).sort();
    if (names.length === 0)
      throw new InvalidParameterError(
        'file',
        `${path} is a folder with no boundary file (${[...BOUNDARY_EXTENSIONS].join(', ')}).`,
      );
    out.push(...names.map((n) => join(path, n)));
  }
  return out;
}

function emptySummary(): ImportSummary {
  return {
    files: [],
    features: 0,
    layers: [],
    change: { created: [], updated: [], deleted: [], unchanged: 0 },
    skipped: [],
    rejected: [],
    rejectedByCode: {},
  };
}

function addFile(summary: ImportSummary, report: FileReport, derived: Derived): void {
  summary.files.push(report);
  summary.features += report.features;
  summary.skipped.push(...derived.skipped.map((f) => ({ file: report.file, ...f })));
  summary.rejected.push(...derived.rejected.map((f) => ({ file: report.file, ...f })));
  summary.rejectedByCode = countByCode(summary.rejected);
}

interface Derived {
  regions: RegionRecord[];
  features: number;
  skipped: SkippedFeature[];
  rejected: RejectedFeature[];
}

/** Regions, skips and rejections (at their positions in the file), before anything is stored. */
function derive(contents: BoundaryFileContents, req: BoundaryImport, state: string, path: string): Derived {
  const identity = {
    ...(state === '' ? {} : { state }),
    ...(req.codeField === undefined ? {} : { codeField: req.codeField }),
    ...(req.nameField === undefined ? {} : { nameField: req.nameField }),
  };
  const report = regionsFromFeatureCollection(contents.collection, req.level, identity, path);
  // Positions in the file, not in the collection the reader handed on.
  const inFile = <T extends { index: number }>(f: T): T => ({ ...f, index: contents.sourceIndex[f.index] ?? f.index });
  return {
    regions: report.regions,
    features: contents.collection.features.length + contents.rejected.length,
    skipped: report.skipped.map(inFile),
    rejected: [...contents.rejected, ...report.rejected.map(inFile)].sort((a, b) => a.index - b.index),
  };
}

/** A slug two files both hold, with the files. */
function duplicateSlug(regions: readonly RegionRecord[]): { slug: string; files: string[] } | undefined {
  const from = new Map<string, string>();
  for (const r of regions) {
    const seen = from.get(r.slug);
    if (seen !== undefined && seen !== r.source?.name) return { slug: r.slug, files: [seen, r.source?.name ?? '?'] };
    from.set(r.slug, r.source?.name ?? '');
  }
  return undefined;
}

/** One replacement per state the regions lie in (and per scale, where files of two scales hold one state), in state order. */
function layersByState(level: Level, validFrom: string, regions: readonly RegionRecord[]): LayerReplacement[] {
  const layers = new Map<string, LayerReplacement & { regions: RegionRecord[] }>();
  for (const r of regions) {
    const key = { level, state: r.state, validFrom, scale: r.source?.scale ?? 0 };
    const id = layerId(key);
    const layer = layers.get(id);
    if (layer === undefined) layers.set(id, { key, regions: [r] });
    else layer.regions.push(r);
  }
  return [...layers.values()].sort((a, b) =>
    a.key.state < b.key.state ? -1 : a.key.state > b.key.state ? 1 : a.key.scale - b.key.scale,
  );
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
  if (!Number.isFinite(f) || f < 0 || f > 1)
    throw new InvalidParameterError(
      'max_delete_fraction',
      `max_delete_fraction must be a number from 0 to 1, got ${f}.`,
    );
  return f;
}

/** Why replacing a layer deletes more than allowed, or undefined when it does not. */
function deletionRefusal(change: LayerChange, maxFraction: number): string | undefined {
  const n = change.deleted.length;
  if (n === 0 || n <= maxFraction * change.before) return undefined;
  const shown = change.deleted.slice(0, 5).join(', ') + (n > 5 ? `, and ${n - 5} more` : '');
  const allowed =
    maxFraction === 0
      ? 'deletions need --replace'
      : `at most ${Math.floor(maxFraction * change.before)} may go without --replace`;
  return `The import would delete ${n} of the ${change.before} stored versions of ${layerName(change.key)} (${shown}); ${allowed}.`;
}

/** `the congressional-district map of NH from 2023-01-03`. */
export function layerName(key: LayerKey): string {
  const state = key.state === '' ? 'the nation' : key.state.toUpperCase();
  const scale = key.scale === 0 ? '' : ` at 1:${key.scale.toLocaleString('en-US')}`;
  return `the ${restLevel(key.level)} map of ${state}${scale} ${key.validFrom === '' ? '(undated)' : `from ${key.validFrom}`}`;
}

function describeLeftOut(s: ImportSummary): string {
  const parts = [`${s.features} feature(s) read`];
  if (s.rejected.length > 0) parts.push(`${s.rejected.length} rejected: ${describeCodes(s.rejectedByCode)}`);
  if (s.skipped.length > 0) parts.push(`${s.skipped.length} skipped as no district`);
  return parts.join(', ');
}

function describeCodes(counts: Partial<Record<RejectCode, number>>): string {
  return Object.entries(counts)
    .map(([code, n]) => `${n} ${code}`)
    .join(', ');
}

function normaliseState(code: string | undefined): string {
  if (code === undefined || code === '') return '';
  const info = findState(code.toLowerCase());
  if (info === undefined) throw new InvalidParameterError('state', `"${code}" is not a US state or territory code.`);
  return info.usps.toLowerCase();
}
