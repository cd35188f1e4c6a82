import { unzipSync } from 'fflate';
import { BoundaryFileError } from './errors.js';
import type { ShapefileParts } from './shapefile-parts.js';

/** A .shp found in a zip: the archive it sits in and its entry name there. */
interface Candidate {
  archive: Uint8Array;
  /** Path of the inner zip inside the outer one, or '' for the outer zip itself. */
  container: string;
  entry: string;
}

/**
 * Finds the shapefile in a zip and extracts its .shp, .dbf, .prj and .cpg (siblings: same
 * folder and basename, extension case-insensitive). macOS resource forks (`__MACOSX/`,
 * `._name`) are ignored. When the zip holds no .shp but holds zips, they are searched one
 * level down (VIP feeds ship `gis_<county>.zip` inside the feed zip). Several shapefiles
 * need `layer` (a basename, e.g. `precincts`) to pick one.
 */
export function shapefileFromZip(bytes: Uint8Array, file: string, layer?: string): ShapefileParts {
  const top = listEntries(bytes, file, '');
  let candidates = shpCandidates(bytes, '', top);
  if (candidates.length === 0) {
    const inner = top.filter((name) => /\.zip$/i.test(name));
    candidates = inner.flatMap((name) => {
      const archive = extract(bytes, name, file);
      return shpCandidates(archive, name, listEntries(archive, file, name));
    });
  }
  if (candidates.length === 0)
    throw new BoundaryFileError(file, `the zip holds no shapefile (.shp); it holds ${summarise(top)}`);
  return partsOf(pick(candidates, file, layer), file);
}

function listEntries(archive: Uint8Array, file: string, container: string): string[] {
  const names: string[] = [];
  try {
    // The filter sees every entry; refusing them all lists the archive without inflating it.
    unzipSync(archive, {
      filter: (f) => {
        names.push(f.name);
        return false;
      },
    });
  } catch (err) {
    throw new BoundaryFileError(
      file,
      `${container === '' ? 'the zip' : container} is not a readable zip archive: ${String(err)}`,
      { cause: err },
    );
  }
  return names.filter((name) => !isJunk(name));
}

function isJunk(name: string): boolean {
  return (
    name.endsWith('/') ||
    name.split('/').some((part) => part === '__MACOSX' || part.startsWith('._') || part === '.DS_Store')
  );
}

function shpCandidates(archive: Uint8Array, container: string, names: string[]): Candidate[] {
  return names.filter((name) => /\.shp$/i.test(name)).map((entry) => ({ archive, container, entry }));
}

function extract(archive: Uint8Array, entry: string, file: string): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    bytes = unzipSync(archive, { filter: (f) => f.name === entry })[entry];
  } catch (err) {
    throw new BoundaryFileError(file, `cannot extract ${entry}: ${String(err)}`, { cause: err });
  }
  if (bytes === undefined) throw new BoundaryFileError(file, `cannot extract ${entry}`);
  return bytes;
}

function layerName(c: Candidate): string {
  const base = c.entry.replace(/\.shp$/i, '');
  return c.container === '' ? base : `${c.container}/${base}`;
}

function pick(candidates: Candidate[], file: string, layer: string | undefined): Candidate {
  if (layer !== undefined) {
    const wanted = layer.toLowerCase();
    const match = candidates.find((c) => [layerName(c), baseName(c.entry)].some((n) => n.toLowerCase() === wanted));
    if (match === undefined)
      throw new BoundaryFileError(
        file,
        `no shapefile named ${layer} in the zip; it has ${candidates.map(layerName).join(', ')}`,
      );
    return match;
  }
  if (candidates.length > 1)
    throw new BoundaryFileError(
      file,
      `the zip holds ${candidates.length} shapefiles (${candidates.map(layerName).join(', ')}); choose one with the layer option`,
    );
  return candidates[0]!;
}

function baseName(entry: string): string {
  return entry.slice(entry.lastIndexOf('/') + 1).replace(/\.shp$/i, '');
}

function partsOf(c: Candidate, file: string): ShapefileParts {
  const stem = c.entry.slice(0, -4).toLowerCase();
  const wanted = new Map(['shp', 'dbf', 'prj', 'cpg'].map((ext) => [`${stem}.${ext}`, ext]));
  const found = new Map<string, Uint8Array>();
  const entries = unzipSync(c.archive, { filter: (f) => !isJunk(f.name) && wanted.has(f.name.toLowerCase()) });
  for (const [name, bytes] of Object.entries(entries)) found.set(wanted.get(name.toLowerCase())!, bytes);
  const dbf = found.get('dbf');
  if (dbf === undefined)
    throw new BoundaryFileError(
      file,
      `${c.entry} has no ${baseName(c.entry)}.dbf beside it${c.container === '' ? '' : ` in ${c.container}`} (the attribute table is required)`,
    );
  const text = (ext: string) => {
    const bytes = found.get(ext);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  };
  return { name: layerName(c), shp: found.get('shp')!, dbf, prj: text('prj'), cpg: text('cpg') };
}

function summarise(names: string[]): string {
  if (names.length === 0) return 'no files';
  const shown = names.slice(0, 8).join(', ');
  return names.length > 8 ? `${shown} and ${names.length - 8} more` : shown;
}
