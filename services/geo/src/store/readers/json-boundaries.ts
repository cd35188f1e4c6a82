import { feature } from 'topojson-client';
import { crsFromGeoJsonMember, type SourceCrs } from './crs.js';
import { BoundaryFileError } from './errors.js';
import type { RawFeature } from './raw-feature.js';

/** A GeoJSON or TopoJSON file's features, before repair and reprojection. */
export interface ParsedJson {
  format: 'geojson' | 'topojson';
  features: RawFeature[];
  crs: SourceCrs;
  /** The TopoJSON object read; undefined for GeoJSON. */
  layer: string | undefined;
}

/** Parses a file's bytes as JSON; malformed JSON is a `BoundaryFileError`. */
export function parseJson(bytes: Uint8Array, file: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new BoundaryFileError(file, `malformed JSON: ${(err as Error).message}`, { cause: err });
  }
}

/** The boundary format parsed JSON claims by its `type`, or undefined for other JSON. */
export function jsonFormat(json: unknown): 'geojson' | 'topojson' | undefined {
  const type = (json as { type?: unknown } | null)?.type;
  return type === 'FeatureCollection' ? 'geojson' : type === 'Topology' ? 'topojson' : undefined;
}

/**
 * The features of parsed JSON: a GeoJSON FeatureCollection (with an optional legacy `crs`
 * member) or a TopoJSON Topology. Other JSON (a bare Feature or geometry, anything else)
 * is a `BoundaryFileError` saying what was found.
 */
export function boundaryJson(json: unknown, file: string, object?: string): ParsedJson {
  const format = jsonFormat(json);
  if (format === 'topojson') return topologyFeatures(json as Topology, file, object);
  const collection = json as { features?: unknown; crs?: unknown };
  if (format === undefined)
    throw new BoundaryFileError(
      file,
      `expected a GeoJSON FeatureCollection or a TopoJSON Topology, found JSON ${describeJson(json)}`,
    );
  if (!Array.isArray(collection.features))
    throw new BoundaryFileError(file, 'a FeatureCollection without a features array');
  const features = (collection.features as unknown[]).map(asRawFeature);
  return { format: 'geojson', features, crs: crsFromGeoJsonMember(collection.crs, file), layer: undefined };
}

function describeJson(value: unknown): string {
  const json = value as { type?: unknown } | null;
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    return Array.isArray(json) ? 'array' : String(json);
  return json.type === undefined ? 'without a "type"' : `of type ${JSON.stringify(json.type)}`;
}

function asRawFeature(f: unknown): RawFeature {
  const { id, properties, geometry } = (f ?? {}) as { id?: unknown; properties?: unknown; geometry?: unknown };
  const props = typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : null;
  return {
    ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
    properties: props,
    geometry: geometry ?? null,
  };
}

/** TopoJSON has no CRS member; RFC-less but by convention lon/lat (a projected topology fails the range check). */
const TOPOJSON_LON_LAT: SourceCrs = { name: 'WGS 84 lon/lat (TopoJSON)' };

interface Topology {
  type: 'Topology';
  objects?: Record<string, { geometries?: unknown[] }>;
}

/**
 * Reads one object of a Topology: `object` by name, else the one with the most geometries
 * (the first of those on a tie). In us-atlas that is `states` in states-10m.json and
 * `counties` in counties-10m.json, not the one-feature `nation` listed after them.
 */
function topologyFeatures(topology: Topology, file: string, object: string | undefined): ParsedJson {
  const objects = Object.entries(topology.objects ?? {});
  if (objects.length === 0) throw new BoundaryFileError(file, 'a TopoJSON Topology without objects');
  const chosen = object === undefined ? largest(objects) : objects.find(([name]) => name === object);
  if (chosen === undefined)
    throw new BoundaryFileError(
      file,
      `no TopoJSON object named ${object}; it has ${objects.map(([n]) => n).join(', ')}`,
    );
  const converted = feature(topology, chosen[1]) as unknown as { type: string; features?: unknown[] };
  const features = converted.type === 'FeatureCollection' ? (converted.features ?? []) : [converted];
  return { format: 'topojson', features: features.map(asRawFeature), crs: TOPOJSON_LON_LAT, layer: chosen[0] };
}

function largest<T extends { geometries?: unknown[] }>(objects: [string, T][]): [string, T] {
  const size = (o: T) => (Array.isArray(o.geometries) ? o.geometries.length : 1);
  return objects.reduce((best, next) => (size(next[1]) > size(best[1]) ? next : best));
}
