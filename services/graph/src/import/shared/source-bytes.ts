import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { unzipSync } from 'fflate';
import { ImportFileError } from './errors.js';

/**
 * A source file's bytes; a missing, unreadable or empty file is an ImportFileError. (Not its
 * modification time: a copy made today says nothing of when the source was published.)
 */
export async function readSourceBytes(path: string): Promise<{ bytes: Uint8Array }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new ImportFileError(
      path,
      0,
      `cannot read the file (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      { cause },
    );
  }
  if (bytes.length === 0) throw new ImportFileError(path, 0, 'the file is empty');
  return { bytes };
}

/** macOS archive junk (`__MACOSX/`, `._*`, `.DS_Store`) and folder entries. */
export function isZipJunk(name: string): boolean {
  return (
    name.endsWith('/') ||
    name.split('/').some((part) => part === '__MACOSX' || part.startsWith('._') || part === '.DS_Store')
  );
}

/**
 * The one file of a kind inside a zip (`csv`, `xml`), or the entry named by `entry`; junk is
 * ignored. None, several, or an unreadable archive is an ImportFileError listing what the
 * zip holds.
 */
export function fileFromZip(
  bytes: Uint8Array,
  path: string,
  extension: 'csv' | 'xml',
  entry: string | undefined,
): { name: string; content: Uint8Array } {
  const pattern = new RegExp(`\\.${extension}$`, 'i');
  const label = extension.toUpperCase();
  let files: Record<string, Uint8Array>;
  const names: string[] = [];
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (isZipJunk(f.name)) return false;
        names.push(f.name);
        return entry === undefined ? pattern.test(f.name) : f.name === entry;
      },
    });
  } catch (cause) {
    throw new ImportFileError(path, 0, `not a readable zip archive (${String(cause)})`, { cause });
  }
  const found = Object.keys(files);
  const listing = names.length === 0 ? 'nothing' : names.join(', ');
  if (found.length === 1) return { name: found[0]!, content: files[found[0]!]! };
  if (entry !== undefined) throw new ImportFileError(path, 0, `the zip holds no entry "${entry}"; it holds ${listing}`);
  if (found.length === 0)
    throw new ImportFileError(path, 0, `the zip holds no .${extension} file; it holds ${listing}`);
  throw new ImportFileError(
    path,
    0,
    `the zip holds several ${label} files (${found.map((f) => basename(f)).join(', ')}): name one with the entry option`,
  );
}
