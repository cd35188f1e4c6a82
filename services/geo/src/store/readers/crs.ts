import proj4 from 'proj4';
import type { Position } from '../../domain/region.js';
import { BoundaryFileError } from './errors.js';

/** A source coordinate reference system, and how to get WGS84 lon/lat from it. */
export interface SourceCrs {
  /** The name the file gives it: the WKT name, an EPSG code, or a default's description. */
  readonly name: string;
  /** Converts one position to `[lon, lat]` degrees; absent when positions already are lon/lat. */
  readonly toLonLat?: (p: Position) => Position;
}

/** GeoJSON without a `crs` member, and TopoJSON: RFC 7946 lon/lat. */
export const DEFAULT_LON_LAT: SourceCrs = { name: 'WGS 84 (lon/lat, the GeoJSON default)' };

/** Geographic codes whose datum is WGS84 or NAD83 (GRS80), read as is: WGS 84, NAD83, NAD83(HARN), NAD83(CSRS), NAD83(2011). */
const LON_LAT_EPSG = new Set([4326, 4269, 4152, 4617, 6318]);

const GEOGRAPHIC_WKT = new Set(['GEOGCS', 'GEOGCRS', 'GEODCRS', 'GEOGRAPHICCRS', 'GEODETICCRS']);
const PROJECTED_WKT = new Set(['PROJCS', 'PROJCRS', 'PROJECTEDCRS']);

/** The parts of a proj4 projection this module reads (proj4's typings leave them out). */
interface ProjFacts {
  projName?: string;
  units?: string;
  from_greenwich?: number;
  a?: number;
  es?: number;
  datum?: { datum_type?: number };
}

function unsupported(file: string, name: string, why: string, cause?: unknown): BoundaryFileError {
  return new BoundaryFileError(file, `unknown or unsupported coordinate reference system: ${name} (${why})`, { cause });
}

/**
 * The CRS of a shapefile's `.prj` (WKT 1, ESRI or OGC flavour; proj4 also reads WKT 2).
 * Geographic NAD83/WGS84 (any GRS80 or WGS84-ellipsoid datum, degrees, Greenwich) is read
 * as is; anything else proj4 can parse is reprojected to WGS84 lon/lat. Refused, with the
 * CRS's name: WKT proj4 cannot parse, WKT that is neither geographic nor projected, and
 * datums off the GRS80/WGS84 ellipsoid for which proj4 knows no shift (NAD27 and other
 * grid-shifted datums: proj4 would silently leave them unshifted, hundreds of metres off).
 */
export function crsFromPrj(wkt: string, file: string): SourceCrs {
  const header = /^\s*([A-Z_]+)\s*\[\s*"([^"]*)"/i.exec(wkt);
  if (header === null) throw unsupported(file, JSON.stringify(wkt.slice(0, 40)), 'the .prj is not WKT');
  const keyword = header[1]!.toUpperCase();
  const name = header[2]!;
  if (!GEOGRAPHIC_WKT.has(keyword) && !PROJECTED_WKT.has(keyword))
    throw unsupported(file, name, `${keyword} is neither geographic nor projected`);
  return fromProj4Definition(wkt, name, file);
}

function fromProj4Definition(definition: string, name: string, file: string): SourceCrs {
  let facts: ProjFacts;
  try {
    facts = new proj4.Proj(definition) as unknown as ProjFacts;
  } catch (err) {
    throw unsupported(file, name, 'proj4 cannot parse its definition', err);
  }
  if (!datumIsUsable(facts))
    throw unsupported(file, name, 'its datum is not NAD83 or WGS84 and proj4 knows no shift from it');
  if (isPlainLonLat(facts)) return { name };
  const converter = proj4(definition, 'WGS84');
  return { name, toLonLat: (p) => converter.forward([p[0]!, p[1]!]) };
}

/** GRS80 and WGS84 differ by 0.1 mm in the semi-minor axis: both count as "NAD83/WGS84". */
function datumIsUsable(p: ProjFacts): boolean {
  const type = p.datum?.datum_type;
  if (type === 1 || type === 2 || type === 4) return true; // proj4 has a Helmert shift (or it is WGS84)
  const onEarthEllipsoid = p.a !== undefined && Math.abs(p.a - 6378137) < 0.5;
  return onEarthEllipsoid && (p.es === 0 || (p.es !== undefined && Math.abs(p.es - 0.00669438) < 1e-8));
}

function isPlainLonLat(p: ProjFacts): boolean {
  return p.projName === 'longlat' && /^degrees?$/i.test(p.units ?? 'degree') && !p.from_greenwich;
}

/**
 * The CRS named by a GeoJSON legacy `crs` member (2008 GeoJSON: `{type: "name",
 * properties: {name: "urn:ogc:def:crs:EPSG::4269"}}` or `{type: "EPSG", properties: {code}}`).
 * Absent or null is RFC 7946 lon/lat. CRS84 and the NAD83/WGS84 geographic codes are read
 * as is (as GDAL does, with lon/lat axis order whatever EPSG says); other EPSG codes are
 * reprojected when proj4 has a definition for them (it ships only a handful, e.g. 3857),
 * and refused otherwise.
 */
export function crsFromGeoJsonMember(member: unknown, file: string): SourceCrs {
  if (member === undefined || member === null) return DEFAULT_LON_LAT;
  const name = crsMemberName(member);
  if (name === undefined)
    throw unsupported(file, JSON.stringify(member).slice(0, 80), 'a crs member neither of type "name" nor "EPSG"');
  if (/CRS:?84$/i.test(name)) return { name };
  const code = epsgCode(name);
  if (code === undefined) throw unsupported(file, name, 'not an EPSG code or CRS84');
  if (LON_LAT_EPSG.has(code)) return { name: `EPSG:${code}` };
  const known = proj4.defs(`EPSG:${code}`) as unknown;
  if (known === undefined)
    throw unsupported(file, `EPSG:${code}`, 'proj4 has no definition for it; reproject the file to EPSG:4326 first');
  return fromProj4Definition(`EPSG:${code}`, `EPSG:${code}`, file);
}

function crsMemberName(member: unknown): string | undefined {
  const { type, properties } = member as { type?: unknown; properties?: { name?: unknown; code?: unknown } | null };
  if (type === 'name' && typeof properties?.name === 'string') return properties.name;
  if (type === 'EPSG' && (typeof properties?.code === 'number' || typeof properties?.code === 'string'))
    return `EPSG:${properties.code}`;
  return undefined;
}

/** `EPSG:4326`, `urn:ogc:def:crs:EPSG::4326`, `urn:ogc:def:crs:EPSG:6.6:4326`, `…/def/crs/EPSG/0/4326`. */
function epsgCode(name: string): number | undefined {
  const match = /EPSG(?::[\d.]*:|:|\/\d+\/)(\d+)$/i.exec(name.trim());
  return match === null ? undefined : Number(match[1]);
}

/** Whether a position is a finite `[lon, lat]` pair inside [-180, 180] × [-90, 90]. */
export function isLonLat(p: Position): boolean {
  const [x, y] = p;
  return x !== undefined && y !== undefined && x >= -180 && x <= 180 && y >= -90 && y <= 90;
}
