import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { slugKey, todayUtc } from '@civicgraph/kit';
import type { DraftItem, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { batchItem, edge, rejected, sourcedBatch } from '../shared/batch.js';
import { headeredRows, parseDelimited, shapeProblem } from '../shared/csv.js';
import { ImportFileError } from '../shared/errors.js';
import { provenanceDraft, retrievedAt } from '../shared/provenance.js';
import { reference } from '../shared/regions.js';
import { readTextFile, type SourceEncoding } from '../shared/text-file.js';
import { readAliases, type AliasIndex } from './aliases.js';
import { OCD_FILES, OCD_REPO_URL, specFor, type OcdFileSpec } from './files.js';
import { regionFromRow, type OcdRow, type RowOptions } from './region-rows.js';

export interface OcdImportOptions {
  /** YYYY-MM-DD; rows valid only through an earlier day are skipped as expired. Default: today (UTC). */
  asOf?: string;
  /** When the files were fetched; default: each file's mtime. */
  retrievedAt?: string | Date;
  /** How the file was delivered dates it (HTTP Last-Modified, a mirror's snapshot): used when no `retrievedAt` is given. */
  sourceDate?: string;
  /** Also import Census places and county subdivisions from us_census_places.csv (counties always). */
  places?: boolean;
  encoding?: SourceEncoding;
}

/**
 * `civicgraph import ocd <path>`: OCD division ids → region drafts (slug as the geo service
 * names the area, the file's name, level, FIPS, OCD id, aliases from aliases.csv), one item
 * per row. `path` is the `country-us` folder (every file it knows there, states first) or
 * one of its files (aliases.csv beside it, or one folder up, still applies).
 */
export async function* importOcd(path: string, options: OcdImportOptions = {}): AsyncGenerator<DraftItem> {
  const { root, files } = resolveFiles(path);
  const rowOptions: RowOptions = { asOf: options.asOf ?? todayUtc(), places: options.places ?? false };
  const aliasFile = join(root, 'aliases.csv');
  const aliases = existsSync(aliasFile) ? await loadAliases(aliasFile, options) : undefined;
  if (aliases !== undefined) yield* aliases.rejections;
  const seen = new Map<string, Seen>();
  for (const spec of files) yield* importFile(join(root, spec.path), spec, aliases, seen, rowOptions, options);
}

/** The country-us folder and the data files to read in it (aliases apart). */
function resolveFiles(path: string): { root: string; files: OcdFileSpec[] } {
  if (!existsSync(path)) throw new ImportFileError(path, 0, 'no such file or folder');
  if (statSync(path).isDirectory()) {
    const root =
      existsSync(join(path, 'country-us')) && !existsSync(join(path, 'states.csv')) ? join(path, 'country-us') : path;
    const files = OCD_FILES.filter((f) => f.kind !== 'aliases' && existsSync(join(root, f.path)));
    if (files.length === 0)
      throw new ImportFileError(path, 0, `no OCD files here (looked for ${OCD_FILES.map((f) => f.path).join(', ')})`);
    return { root, files };
  }
  const spec = specFor(path);
  if (spec === undefined)
    throw new ImportFileError(
      path,
      0,
      `not an OCD file this importer reads (${OCD_FILES.map((f) => basename(f.path)).join(', ')})`,
    );
  if (spec.kind === 'aliases')
    throw new ImportFileError(
      path,
      0,
      'aliases.csv only adds ids to the regions the other files list: import the folder',
    );
  const here = dirname(path);
  return { root: spec.path.includes('/') ? dirname(here) : here, files: [spec] };
}

interface LoadedAliases {
  index: AliasIndex;
  provenance: PlainDraft<'provenance'>;
  rejections: DraftItem[];
}

async function loadAliases(file: string, options: OcdImportOptions): Promise<LoadedAliases> {
  const spec = specFor(file)!;
  const text = await readTextFile(file, options.encoding);
  const { index, rejections } = readAliases(text.text, file, basename(file));
  return {
    index,
    rejections,
    provenance: fileProvenance(spec, retrievedAt(options.retrievedAt, undefined, text.path, options.sourceDate)),
  };
}

function fileProvenance(spec: OcdFileSpec, at: string): PlainDraft<'provenance'> {
  return provenanceDraft({
    key: `ocd-${slugKey(basename(spec.path, '.csv'))}`,
    source: spec.source,
    url: OCD_REPO_URL + spec.path,
    publisher: 'Open Civic Data (opencivicdata/ocd-division-ids)',
    licence: 'CC0-1.0',
    retrievedAt: at,
    method: 'import',
  });
}

async function* importFile(
  file: string,
  spec: OcdFileSpec,
  aliases: LoadedAliases | undefined,
  seen: Map<string, Seen>,
  rowOptions: RowOptions,
  options: OcdImportOptions,
): AsyncGenerator<DraftItem> {
  const text = await readTextFile(file, options.encoding);
  const provenance = fileProvenance(spec, retrievedAt(options.retrievedAt, undefined, text.path, options.sourceDate));
  const label = basename(file);
  for (const row of rows(text.text, file, spec)) {
    const at = `${label} line ${row.line}`;
    if ('shape' in row) {
      yield rejected(at, row.shape);
      continue;
    }
    const outcome = regionFromRow(spec.kind as Exclude<typeof spec.kind, 'aliases'>, row.values, rowOptions);
    if ('skip' in outcome) continue;
    if ('reason' in outcome) {
      yield rejected(at, outcome.reason);
      continue;
    }
    const first = seen.get(outcome.region.slug);
    if (first !== undefined) {
      yield rejected(at, duplicateReason(outcome.region, first));
      continue;
    }
    seen.set(outcome.region.slug, { at, ocdId: outcome.region.data.ocdId });
    yield batchItem(at, regionBatch(outcome.region, outcome.parent, provenance, aliases));
  }
}

/** Where a region slug was first drafted in this run. */
interface Seen {
  at: string;
  ocdId: string;
}

function duplicateReason(region: PlainDraft<'region'>, first: Seen): string {
  return first.ocdId === region.data.ocdId
    ? `duplicate of ${first.at} (${region.data.ocdId} is listed twice)`
    : `${region.slug} was already drafted from ${first.at} (${first.ocdId}): two divisions with one name`;
}

/** The row's region with its aliases, a reference to its parent and the edge WITHIN it. */
function regionBatch(
  region: PlainDraft<'region'>,
  parent: PlainDraft<'region'> | undefined,
  provenance: PlainDraft<'provenance'>,
  aliases: LoadedAliases | undefined,
) {
  const ids = aliases?.index.get(region.data.ocdId) ?? [];
  const withAliases: PlainDraft<'region'> = { ...region, data: { ...region.data, aliases: [...ids] } };
  const nodes: NodeDraft[] = [provenance, withAliases];
  const edges: EdgeDoc[] = [];
  if (ids.length > 0 && aliases !== undefined) {
    nodes.push(aliases.provenance);
    edges.push(edge('SUPPORTED_BY', region.slug, aliases.provenance.slug));
  }
  if (parent !== undefined) {
    nodes.push(reference(parent));
    edges.push(edge('WITHIN', region.slug, parent.slug));
  }
  return sourcedBatch(nodes, edges, provenance.slug);
}

type Row = { line: number; values: OcdRow } | { line: number; shape: string };

/** The file's rows as OcdRows: states.csv has no header (`id,name`), the others name their columns. */
function* rows(text: string, file: string, spec: OcdFileSpec): Generator<Row> {
  if (spec.columns === null) {
    for (const r of parseDelimited(text, file)) {
      if (r.fields.length !== 2) yield { line: r.line, shape: shapeProblem(r, 2) };
      else
        yield {
          line: r.line,
          values: { id: r.fields[0]!, name: r.fields[1]!, geoid: '', sameAs: '', validThrough: '' },
        };
    }
    return;
  }
  for (const r of headeredRows(text, file, spec.columns)) {
    if (r.shape !== undefined) yield { line: r.line, shape: r.shape };
    else
      yield {
        line: r.line,
        values: {
          id: r.values.id ?? '',
          name: r.values.name ?? '',
          geoid: r.values.census_geoid ?? '',
          sameAs: r.values.sameAs ?? '',
          validThrough: r.values.validThrough ?? '',
        },
      };
  }
}
