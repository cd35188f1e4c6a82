import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { RegionGeometry } from '../../domain/region.js';
import type { SourceCrs } from './crs.js';
import { shapefileFromDisk } from './disk-shapefile.js';
import type { RejectCode, RejectedFeature } from '../features.js';
import { BoundaryFileError } from './errors.js';
import { boundaryJson, jsonFormat, parseJson } from './json-boundaries.js';
import { firstNonLonLat, toLonLat } from './project.js';
import type { RawFeature } from './raw-feature.js';
import { repairGeometry } from './repair.js';
import { parseShapefile } from './shapefile-parts.js';
import {
  describeBytes,
  formatsForExtension,
  KIND_NAMES,
  sniffContent,
  type BoundaryFormat,
  type ContentKind,
} from './sniff.js';
import { shapefileFromZip } from './zip-shapefile.js';

export { BoundaryFileError } from './errors.js';
export type { RejectedFeature } from '../features.js';
export type { BoundaryFormat } from './sniff.js';

/** Options for `readBoundaryFile`. */
export interface BoundaryReadOptions {
  /**
   * TopoJSON: the object to read. Default: the object with the most geometries (the first
   * of them on a tie), e.g. `counties` in us-atlas's counties-10m.json.
   */
  object?: string;
  /** Zips holding several shapefiles: the one to read, by basename (`precincts`). */
  layer?: string;
}

/** A boundary feature in WGS84 lon/lat with a repaired Polygon or MultiPolygon. */
export interface BoundaryFeature {
  type: 'Feature';
  id?: string | number;
  properties: Record<string, unknown>;
  geometry: RegionGeometry;
}

/** A feature of the file (by its position there) whose geometry was repaired, and how. */
export interface RepairedFeature {
  index: number;
  repairs: string[];
}

/** What `readBoundaryFile` read. */
export interface BoundaryFileContents {
  /** The format the content turned out to be (a zipped shapefile is `shapefile`). */
  format: BoundaryFormat;
  /** The TopoJSON object or the shapefile (basename, `inner.zip/name` when nested) read; undefined for GeoJSON. */
  layer: string | undefined;
  /** The file's CRS by its own name, and whether coordinates were reprojected from it. */
  crs: { name: string; reprojected: boolean };
  /** The usable features, in file order, ready for `regionsFromFeatureCollection`. */
  collection: { type: 'FeatureCollection'; features: BoundaryFeature[] };
  /** For each feature of `collection`, its position in the file (rejected ones leave gaps). */
  sourceIndex: number[];
  rejected: RejectedFeature[];
  repaired: RepairedFeature[];
}

/**
 * Reads a boundary file — GeoJSON, TopoJSON, or an ESRI shapefile (`.shp` with its
 * `.dbf`/`.prj` beside it, or zipped, one zip level of nesting allowed) — into WGS84 lon/lat
 * features. The format comes from the content (zip and shapefile signatures, the JSON's
 * `type`), and an extension that promises something else is an error. Projected
 * coordinates are reprojected with proj4. Each feature's geometry is repaired or the
 * feature rejected with a reason (`repairGeometry`); bad features never abort the file.
 * Throws `BoundaryFileError` (field `file`) when the file as a whole cannot be read.
 */
export async function readBoundaryFile(path: string, options: BoundaryReadOptions = {}): Promise<BoundaryFileContents> {
  const bytes = await readBytes(path);
  const kind = sniffContent(bytes);
  const promised = formatsForExtension(extname(path));
  if (kind === 'empty' || kind === 'unknown')
    throw new BoundaryFileError(path, `expected ${expectation(promised)}, found ${describeBytes(bytes)}`);
  checkExtension(path, promised, kind === 'json' ? undefined : kind, kind);
  const parsed =
    kind === 'json' ? fromJson(path, bytes, promised, options) : await fromShapefile(path, bytes, kind, options);
  return finish(path, parsed);
}

interface Parsed {
  format: BoundaryFormat;
  layer: string | undefined;
  features: RawFeature[];
  crs: SourceCrs;
}

async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new BoundaryFileError(path, `cannot read the file: ${(err as Error).message}`, { cause: err });
  }
}

function fromJson(
  path: string,
  bytes: Uint8Array,
  promised: readonly (BoundaryFormat | 'zip')[] | undefined,
  options: BoundaryReadOptions,
): Parsed {
  const json = parseJson(bytes, path);
  const format = jsonFormat(json);
  if (format !== undefined) checkExtension(path, promised, format, 'json');
  return boundaryJson(json, path, options.object);
}

async function fromShapefile(
  path: string,
  bytes: Uint8Array,
  kind: 'zip' | 'shapefile',
  options: BoundaryReadOptions,
): Promise<Parsed> {
  const parts = kind === 'zip' ? shapefileFromZip(bytes, path, options.layer) : await shapefileFromDisk(path, bytes);
  const { features, crs } = await parseShapefile(parts, path);
  return { format: 'shapefile', layer: parts.name, features, crs };
}

const FORMAT_NAMES: Record<BoundaryFormat | 'zip', string> = {
  geojson: 'GeoJSON',
  topojson: 'TopoJSON',
  shapefile: 'a shapefile (.shp)',
  zip: 'a zip archive holding a shapefile',
};

function expectation(promised: readonly (BoundaryFormat | 'zip')[] | undefined): string {
  return promised === undefined
    ? 'GeoJSON, TopoJSON, a shapefile or a zip of one'
    : promised.map((f) => FORMAT_NAMES[f]).join(' or ');
}

/** `found` undefined: JSON not parsed yet, which only the JSON extensions can promise. */
function checkExtension(
  path: string,
  promised: readonly (BoundaryFormat | 'zip')[] | undefined,
  found: BoundaryFormat | 'zip' | undefined,
  kind: ContentKind,
): void {
  if (promised === undefined) return;
  if (found === undefined ? promised.some((f) => f === 'geojson' || f === 'topojson') : promised.includes(found))
    return;
  const what = found === undefined || kind !== 'json' ? KIND_NAMES[kind] : FORMAT_NAMES[found];
  throw new BoundaryFileError(
    path,
    `the extension ${extname(path)} says ${expectation(promised)}, but the content is ${what}`,
  );
}

function finish(path: string, parsed: Parsed): BoundaryFileContents {
  const contents: BoundaryFileContents = {
    format: parsed.format,
    layer: parsed.layer,
    crs: { name: parsed.crs.name, reprojected: parsed.crs.toLonLat !== undefined },
    collection: { type: 'FeatureCollection', features: [] },
    sourceIndex: [],
    rejected: [],
    repaired: [],
  };
  let outOfRange: string | undefined;
  parsed.features.forEach((raw, index) => {
    const outcome = prepare(raw, parsed.crs);
    if (outcome.repairs.length > 0) contents.repaired.push({ index, repairs: outcome.repairs });
    if ('reason' in outcome) {
      contents.rejected.push({ index, code: outcome.code, reason: outcome.reason });
      if (outcome.outOfRange) outOfRange ??= outcome.reason;
      return;
    }
    contents.collection.features.push(outcome.feature);
    contents.sourceIndex.push(index);
  });
  if (outOfRange !== undefined && contents.collection.features.length === 0)
    throw notLonLat(path, parsed.crs, outOfRange);
  return contents;
}

type Outcome = { repairs: string[] } & (
  { feature: BoundaryFeature } | { code: RejectCode; reason: string; outOfRange: boolean }
);

function prepare(raw: RawFeature, crs: SourceCrs): Outcome {
  const { geometry, repairs, reject } = repairGeometry(raw.geometry);
  if (geometry === undefined)
    return {
      repairs,
      code: reject?.code ?? 'malformed_geometry',
      reason: reject?.reason ?? 'unusable geometry',
      outOfRange: false,
    };
  const lonLat = toLonLat(geometry, crs);
  const bad = firstNonLonLat(lonLat);
  if (bad !== undefined) {
    const how = crs.toLonLat === undefined ? '' : ` after reprojection from ${crs.name}`;
    return {
      repairs,
      code: 'not_lon_lat',
      reason: `position ${JSON.stringify(bad)} is not longitude/latitude${how}`,
      outOfRange: true,
    };
  }
  const feature: BoundaryFeature = {
    type: 'Feature',
    ...(raw.id === undefined ? {} : { id: raw.id }),
    properties: raw.properties ?? {},
    geometry: lonLat,
  };
  return { repairs, feature };
}

/** Every feature out of lon/lat range means the CRS is wrong, not the features. */
function notLonLat(path: string, crs: SourceCrs, example: string): BoundaryFileError {
  const detail =
    crs.toLonLat === undefined
      ? `coordinates are not longitude/latitude but the file declares ${crs.name}; is it projected without saying so? (${example})`
      : `reprojecting from ${crs.name} does not give longitude/latitude; proj4 misread the CRS (${example})`;
  return new BoundaryFileError(path, detail);
}
