import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Test support: writes a minimal polygon shapefile (`<name>.shp` and, unless `dbf` is
 * false, `<name>.dbf` with one text field NAME) into `dir`, one single-ring polygon per
 * record. Rings are written as given (shapefile outer rings are clockwise).
 */
export function writePolygonShapefile(
  dir: string,
  name: string,
  rings: number[][][],
  options: { names?: string[]; dbf?: boolean } = {},
): string {
  writeFileSync(join(dir, `${name}.shp`), shpBytes(rings));
  if (options.dbf !== false)
    writeFileSync(join(dir, `${name}.dbf`), dbfBytes(options.names ?? rings.map((_, i) => `shape ${i + 1}`)));
  return join(dir, `${name}.shp`);
}

function shpBytes(rings: number[][][]): Uint8Array {
  const records = rings.map(polygonRecord);
  const length = 100 + records.reduce((n, r) => n + r.byteLength, 0);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  view.setInt32(0, 9994, false);
  view.setInt32(24, length / 2, false);
  view.setInt32(28, 1000, true);
  view.setInt32(32, 5, true);
  bbox(rings.flat()).forEach((v, i) => view.setFloat64(36 + 8 * i, v, true));
  let offset = 100;
  records.forEach((record, i) => {
    view.setInt32(offset + 0, i + 1, false);
    out.set(record.subarray(8), offset + 8);
    view.setInt32(offset + 4, (record.byteLength - 8) / 2, false);
    offset += record.byteLength;
  });
  return out;
}

/** One record (8-byte header left for `shpBytes`): type, box, one part, the points. */
function polygonRecord(ring: number[][]): Uint8Array {
  const out = new Uint8Array(8 + 44 + 4 + 16 * ring.length);
  const view = new DataView(out.buffer);
  view.setInt32(8, 5, true);
  bbox(ring).forEach((v, i) => view.setFloat64(12 + 8 * i, v, true));
  view.setInt32(44, 1, true);
  view.setInt32(48, ring.length, true);
  view.setInt32(52, 0, true);
  ring.forEach(([x, y], i) => {
    view.setFloat64(56 + 16 * i, x!, true);
    view.setFloat64(64 + 16 * i, y!, true);
  });
  return out;
}

function bbox(points: number[][]): [number, number, number, number] {
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function dbfBytes(names: string[]): Uint8Array {
  const width = 32;
  const headerLength = 32 + 32 + 1;
  const out = new Uint8Array(headerLength + names.length * (1 + width) + 1).fill(0x20);
  const view = new DataView(out.buffer);
  out.fill(0, 0, headerLength);
  view.setUint8(0, 3);
  view.setUint32(4, names.length, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, 1 + width, true);
  out.set(new TextEncoder().encode('NAME'), 32);
  view.setUint8(32 + 11, 'C'.charCodeAt(0));
  view.setUint8(32 + 16, width);
  view.setUint8(64, 0x0d);
  names.forEach((n, i) => out.set(new TextEncoder().encode(n.slice(0, width)), headerLength + i * (1 + width) + 1));
  view.setUint8(out.length - 1, 0x1a);
  return out;
}
