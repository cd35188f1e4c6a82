import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BoundaryFileError } from './errors.js';
import type { ShapefileParts } from './shapefile-parts.js';

/**
 * The parts of a shapefile on disk, given its .shp path and bytes: the .dbf, .prj and .cpg
 * beside it with the same basename (extension matched case-insensitively, as files copied
 * from Windows often come as `.DBF`). A missing .dbf is an error naming it.
 */
export async function shapefileFromDisk(path: string, shp: Uint8Array): Promise<ShapefileParts> {
  const dir = dirname(path);
  const stem = basename(path).replace(/\.shp$/i, '');
  const siblings = await readdir(dir);
  const find = (ext: string) => siblings.find((name) => name.toLowerCase() === `${stem}.${ext}`.toLowerCase());
  const dbfName = find('dbf');
  if (dbfName === undefined)
    throw new BoundaryFileError(path, `no ${stem}.dbf beside it (the attribute table is required)`);
  const text = async (ext: string) => {
    const name = find(ext);
    return name === undefined ? undefined : readFile(join(dir, name), 'utf8');
  };
  return { name: stem, shp, dbf: await readFile(join(dir, dbfName)), prj: await text('prj'), cpg: await text('cpg') };
}
