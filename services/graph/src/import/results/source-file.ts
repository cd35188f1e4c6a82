import { readFile, stat } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { decode, ImportFileError, readTextFile, type TextFile } from '../shared/index.js';

/**
 * The text of a results CSV: the file itself, or for a `.zip` (MEDSL ships each state's
 * precinct returns as `individual_states/<st>24.zip`) the one CSV inside it, or the entry
 * named by `entry`. macOS junk (`__MACOSX/`, `._*`) is ignored. UTF-8 only: a Latin-1 byte
 * is an ImportFileError naming its line.
 */
export async function readResultsText(path: string, entry?: string): Promise<TextFile> {
  if (!/\.zip$/i.test(path)) return readTextFile(path);
  let bytes: Uint8Array;
  let modifiedAt: string;
  try {
    [bytes, modifiedAt] = await Promise.all([readFile(path), stat(path).then((s) => s.mtime.toISOString())]);
  } catch (cause) {
    throw new ImportFileError(path, 0, `cannot read the file (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, { cause });
  }
  const { name, content } = csvFromZip(bytes, path, entry);
  return { path, text: decode(content, `${path}/${name}`, 'utf-8'), modifiedAt };
}

export function isZipJunk(name: string): boolean {
  return name.endsWith('/') || name.split('/').some((part) => part === '__MACOSX' || part.startsWith('._') || part === '.DS_Store');
}

function csvFromZip(bytes: Uint8Array, path: string, entry: string | undefined): { name: string; content: Uint8Array } {
  let files: Record<string, Uint8Array>;
  const names: string[] = [];
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (isZipJunk(f.name)) return false;
        names.push(f.name);
        return entry === undefined ? /\.csv$/i.test(f.name) : f.name === entry;
      },
    });
  } catch (cause) {
    throw new ImportFileError(path, 0, `not a readable zip archive (${String(cause)})`, { cause });
  }
  const found = Object.keys(files);
  const listing = names.length === 0 ? 'nothing' : names.join(', ');
  if (found.length === 1) return { name: found[0]!, content: files[found[0]!]! };
  if (entry !== undefined) throw new ImportFileError(path, 0, `the zip holds no entry "${entry}"; it holds ${listing}`);
  if (found.length === 0) throw new ImportFileError(path, 0, `the zip holds no .csv file; it holds ${listing}`);
  throw new ImportFileError(path, 0, `the zip holds several CSV files (${found.join(', ')}): name one with the entry option`);
}
