/** What a file's first bytes say it is. */
export type ContentKind = 'zip' | 'shapefile' | 'json' | 'empty' | 'unknown';

/** The file formats a boundary file can hold. */
export type BoundaryFormat = 'geojson' | 'topojson' | 'shapefile';

const SHAPEFILE_MAGIC = 9994;

/**
 * Classifies bytes by their signature: a zip local file header (`PK\x03\x04`, or the
 * end-of-directory record `PK\x05\x06` of an empty archive), the shapefile main-file code
 * 9994 (big-endian, offset 0), or JSON (first non-blank character `{`, after any BOM).
 */
export function sniffContent(bytes: Uint8Array): ContentKind {
  if (bytes.length === 0) return 'empty';
  if (isZip(bytes)) return 'zip';
  if (bytes.length >= 100 && readInt32BE(bytes, 0) === SHAPEFILE_MAGIC) return 'shapefile';
  return firstNonBlank(bytes) === 0x7b ? 'json' : 'unknown';
}

function isZip(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
}

function readInt32BE(b: Uint8Array, offset: number): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getInt32(offset, false);
}

function firstNonBlank(b: Uint8Array): number | undefined {
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return b[i];
}

/** A short human description of content that is not a boundary file, for error messages. */
export function describeBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'an empty file';
  const head = bytes.subarray(0, 16);
  const printable = head.every((c) => c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0x7f));
  if (printable) return `text beginning ${JSON.stringify(new TextDecoder().decode(head))}`;
  const hex = [...head.subarray(0, 8)].map((c) => c.toString(16).padStart(2, '0')).join(' ');
  return `${bytes.length} bytes of unrecognised binary data (beginning ${hex})`;
}

/** How the content kinds read in messages. */
export const KIND_NAMES: Record<ContentKind, string> = {
  zip: 'a zip archive',
  shapefile: 'a shapefile (.shp)',
  json: 'JSON',
  empty: 'an empty file',
  unknown: 'unrecognised content',
};

/**
 * The formats a file extension promises, or undefined for extensions that promise nothing
 * in particular (the content alone then decides). `.json` is either GeoJSON or TopoJSON.
 */
export function formatsForExtension(extension: string): readonly (BoundaryFormat | 'zip')[] | undefined {
  switch (extension.toLowerCase()) {
    case '.geojson':
      return ['geojson'];
    case '.topojson':
      return ['topojson'];
    case '.json':
      return ['geojson', 'topojson'];
    case '.shp':
      return ['shapefile'];
    case '.zip':
      return ['zip'];
    default:
      return undefined;
  }
}
