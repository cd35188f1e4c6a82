import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decode, fileFromZip, ImportFileError, readSourceBytes } from '../shared/index.js';
import type { El } from './xml.js';

/** A parsed feed: its root element, and where each element starts, for messages. */
export interface Feed {
  /** The path as given; for a zip, `<zip>/<entry>`. */
  file: string;
  /** `schemaVersion` of the root, e.g. `5.2`, `6.0`. */
  version: string;
  root: El;
  /** 1-based line an element starts on, when known. */
  lineOf(el: El): number | undefined;
}

// Typed `Symbol` (the wrapper) by the library; it is the symbol its nodes are keyed by.
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/**
 * Reads a VIP feed: an `.xml` file, or a `.zip` holding one (`vipfeed-*.xml`; `__MACOSX/`
 * junk and other files, such as the shapefile zip of a 6.0 feed, are ignored). The text
 * is decoded as its XML declaration says (UTF-8 by default, strictly; ISO-8859-1 or
 * windows-1252 when declared), checked to be well-formed XML whose root is `VipObject`,
 * and parsed whole: feeds are a few megabytes. A file that fails any of this is an
 * ImportFileError naming the file and, where the parser says, the line.
 */
export async function readFeed(path: string, entry?: string): Promise<Feed> {
  const { bytes, file } = await feedBytes(path, entry);
  const text = decodeDeclared(bytes, file);
  const check = XMLValidator.validate(text);
  if (check !== true) {
    const why = malformed(check.err, text);
    throw new ImportFileError(file, why.line, why.message);
  }
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    trimValues: true,
    captureMetaData: true,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  }).parse(text) as Record<string, unknown>;
  const roots = Object.keys(parsed).filter((k) => !k.startsWith('?'));
  const root = (parsed.VipObject as El[] | undefined)?.[0];
  if (root === undefined)
    throw new ImportFileError(
      file,
      0,
      `the root element is <${roots[0] ?? 'nothing'}>, not <VipObject>: not a VIP feed`,
    );
  const lineStarts = newlineOffsets(text);
  return {
    file,
    version: typeof root['@_schemaVersion'] === 'string' ? root['@_schemaVersion'] : '',
    root,
    lineOf: (el) => {
      const start = (el as Record<symbol, { startIndex?: number } | undefined>)[META]?.startIndex;
      return start === undefined ? undefined : lineAt(lineStarts, start);
    },
  };
}

async function feedBytes(path: string, entry: string | undefined): Promise<{ bytes: Uint8Array; file: string }> {
  const { bytes } = await readSourceBytes(path);
  if (!/\.zip$/i.test(path)) return { bytes, file: path };
  const { name, content } = fileFromZip(bytes, path, 'xml', entry);
  return { bytes: content, file: `${path}/${name}` };
}

/** Decodes as the XML declaration's `encoding` says: Latin-1 when declared so, else strict UTF-8. */
function decodeDeclared(bytes: Uint8Array, file: string): string {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return decode(bytes, file, 'utf-8');
  if (['iso-8859-1', 'latin1', 'latin-1', 'windows-1252', 'cp1252', 'us-ascii'].includes(declared))
    return decode(bytes, file, 'latin1');
  throw new ImportFileError(
    file,
    1,
    `the XML declaration names encoding "${declared}"; only UTF-8 and ISO-8859-1 are read`,
  );
}

/**
 * The validator's complaint in words a data editor can act on. A cut-off file leaves
 * elements open, which the validator reports as a list of open tags (at line 1), an
 * unclosed tag (at the line it opens), or a closing tag broken off at the very end: each is
 * told as truncation, at the line where the text ends.
 */
function malformed(err: { msg: string; line: number; col: number }, text: string): { line: number; message: string } {
  const lastLine = newlineOffsets(text.trimEnd()).length;
  const truncated = (tags: string[]) => ({
    line: lastLine,
    message: `malformed XML: the document ends with ${tags.map((t) => `<${t}>`).join(', ')} still open: the file looks truncated`,
  });
  const open = /^Invalid '\[(.*)\]' found\.$/s.exec(err.msg);
  if (open !== null)
    return truncated(
      open[1]!
        .split(',')
        .map((t) => t.trim().replace(/^"|"$/g, ''))
        .filter((t) => t !== ''),
    );
  const unclosed = /^Unclosed tag '([^']+)'\.$/.exec(err.msg);
  if (unclosed !== null) return truncated([unclosed[1]!]);
  if (/doesn't have proper closing/.test(err.msg) && err.line >= lastLine)
    return { line: err.line, message: `malformed XML: ${err.msg} The file looks truncated.` };
  return { line: err.line, message: `malformed XML: ${err.msg} (column ${err.col})` };
}

function newlineOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
