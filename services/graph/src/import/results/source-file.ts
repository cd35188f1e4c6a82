import { decode, fileFromZip, readSourceBytes, readTextFile, type TextFile } from '../shared/index.js';

/**
 * The text of a results CSV: the file itself, or for a `.zip` (MEDSL ships each state's
 * precinct returns as `individual_states/<st>24.zip`) the one CSV inside it, or the entry
 * named by `entry`. macOS junk (`__MACOSX/`, `._*`) is ignored. UTF-8 only: a Latin-1 byte
 * is an ImportFileError naming its line.
 */
export async function readResultsText(path: string, entry?: string): Promise<TextFile> {
  if (!/\.zip$/i.test(path)) return readTextFile(path);
  const { bytes } = await readSourceBytes(path);
  const { name, content } = fileFromZip(bytes, path, 'csv', entry);
  return { path, text: decode(content, `${path}/${name}`, 'utf-8') };
}
