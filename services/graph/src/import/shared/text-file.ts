import { ImportFileError } from './errors.js';
import { readSourceBytes } from './source-bytes.js';

/** Encodings a source file may be declared in; UTF-8 is checked strictly. */
export type SourceEncoding = 'utf-8' | 'latin1';

/** A source file's text. */
export interface TextFile {
  path: string;
  text: string;
}

/**
 * Reads a whole source file as text. UTF-8 is decoded strictly: a Latin-1 byte (an FEC
 * file saved by a spreadsheet, `Ñ` as 0xD1) is an ImportFileError naming its line rather
 * than a silent U+FFFD in someone's name; pass `latin1` for files known to be Latin-1.
 * A leading byte-order mark is dropped. An empty file is an error.
 */
export async function readTextFile(path: string, encoding: SourceEncoding = 'utf-8'): Promise<TextFile> {
  const { bytes } = await readSourceBytes(path);
  return { path, text: decode(bytes, path, encoding) };
}

/** Decodes bytes as the named encoding; the error for bad UTF-8 names the line of the first bad byte. */
export function decode(bytes: Uint8Array, path: string, encoding: SourceEncoding): string {
  if (encoding === 'latin1') return Buffer.from(bytes).toString('latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const line = lineAt(bytes, at);
    const hex = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    throw new ImportFileError(
      path,
      line,
      `byte 0x${hex} is not UTF-8 (a Latin-1 file? convert it to UTF-8 or import it as latin1)`,
    );
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n === 0) return i;
    i += n;
  }
  return bytes.length;
}

/** Length of the valid UTF-8 sequence starting at `i`, 0 when it is invalid. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  for (let k = 1; k < n; k++) {
    const c = bytes[i + k];
    if (c === undefined || (c & 0xc0) !== 0x80) return 0;
  }
  return n;
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
