import { read } from 'shapefile';
import { crsFromPrj, isLonLat, type SourceCrs } from './crs.js';
import { BoundaryFileError } from './errors.js';
import type { RawFeature } from './raw-feature.js';
import { describeBytes, sniffContent } from './sniff.js';

/** The files of one shapefile, wherever they came from (disk or a zip). */
export interface ShapefileParts {
  /** The .shp's name for messages and `layer`, e.g. `tl_2022_08_cd118` or `gis.zip/precincts`. */
  name: string;
  shp: Uint8Array;
  dbf: Uint8Array;
  /** The .prj's WKT, when there is one. */
  prj: string | undefined;
  /** The .cpg's code page label (the .dbf's text encoding), when there is one. */
  cpg: string | undefined;
}

/** A shapefile's features, before repair and reprojection, with its CRS. */
export interface ParsedShapefile {
  features: RawFeature[];
  crs: SourceCrs;
}

const POLYGON_TYPES = new Set([5, 15, 25]);
const SHAPE_TYPE_NAMES: Record<number, string> = {
  0: 'null',
  1: 'Point',
  3: 'PolyLine',
  8: 'MultiPoint',
  11: 'PointZ',
  13: 'PolyLineZ',
  18: 'MultiPointZ',
  21: 'PointM',
  23: 'PolyLineM',
  28: 'MultiPointM',
  31: 'MultiPatch',
};

/**
 * Parses a polygon shapefile. Its CRS comes from the .prj (`crsFromPrj`); without one the
 * coordinates are taken as NAD83 lon/lat, but only when the .shp header's bounding box is
 * within lon/lat range. The .dbf is decoded with the .cpg's encoding (windows-1252 when
 * there is no .cpg, as ESRI does).
 */
export async function parseShapefile(parts: ShapefileParts, file: string): Promise<ParsedShapefile> {
  if (sniffContent(parts.shp) !== 'shapefile')
    throw new BoundaryFileError(file, `${parts.name}.shp is not a shapefile: it is ${describeBytes(parts.shp)}`);
  const header = new DataView(parts.shp.buffer, parts.shp.byteOffset, parts.shp.byteLength);
  const shapeType = header.getInt32(32, true);
  if (!POLYGON_TYPES.has(shapeType)) {
    throw new BoundaryFileError(
      file,
      `${parts.name}.shp holds ${SHAPE_TYPE_NAMES[shapeType] ?? `type ${shapeType}`} shapes; boundaries must be polygons`,
    );
  }
  const crs = parts.prj === undefined ? assumedLonLat(header, parts.name, file) : crsFromPrj(parts.prj, file);
  try {
    const collection = await read(parts.shp, parts.dbf, { encoding: dbfEncoding(parts.cpg) });
    return { features: collection.features, crs };
  } catch (err) {
    throw new BoundaryFileError(
      file,
      `${parts.name} is not a readable shapefile: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

function assumedLonLat(header: DataView, name: string, file: string): SourceCrs {
  const [minX, minY, maxX, maxY] = [36, 44, 52, 60].map((offset) => header.getFloat64(offset, true)) as [
    number,
    number,
    number,
    number,
  ];
  if (isLonLat([minX, minY]) && isLonLat([maxX, maxY])) return { name: 'NAD83 lon/lat (assumed: no .prj)' };
  const box = [minX, minY, maxX, maxY].map((v) => Math.round(v)).join(', ');
  throw new BoundaryFileError(
    file,
    `${name} has no .prj and coordinates are not longitude/latitude (bounding box ${box}); add the .prj that came with it`,
  );
}

/** The WHATWG label for a .cpg's content (`UTF-8`, `1252`, `ANSI 1252`, `ISO-8859-1`…). */
function dbfEncoding(cpg: string | undefined): string {
  const label = cpg?.trim() ?? '';
  if (label === '') return 'windows-1252';
  if (/^(utf-?8|65001)$/i.test(label)) return 'utf-8';
  const codePage = /^(?:ansi\s*)?(\d{3,4})$/i.exec(label)?.[1];
  if (codePage !== undefined) return `windows-${codePage}`;
  return /^(88591|iso-?8859-?1|latin-?1)$/i.test(label) ? 'iso-8859-1' : label.toLowerCase();
}
