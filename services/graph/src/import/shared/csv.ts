import { ImportFileError } from './errors.js';

/** How a delimited file is written. */
export interface DelimitedOptions {
  /** Field separator; `,` by default (FEC bulk files: `|`). */
  delimiter?: string;
  /** RFC 4180 double-quoted fields; true by default. FEC files quote nothing, and names there hold bare `"`. */
  quotes?: boolean;
}

/** One row of a delimited file. */
export interface SourceRow {
  /** 1-based line the row starts on. */
  line: number;
  fields: string[];
  /** False for a last row the file ends inside, without a line break: a sign of truncation. */
  terminated: boolean;
}

/**
 * Splits delimited text into rows (CRLF or LF, blank lines skipped). With quotes on, a
 * quoted field may hold delimiters, `""` and line breaks; a file ending inside a quoted
 * field is an ImportFileError (it was cut off, and no later row boundary can be trusted).
 */
export function* parseDelimited(text: string, file: string, options: DelimitedOptions = {}): Generator<SourceRow> {
  const delimiter = options.delimiter ?? ',';
  const quotes = options.quotes ?? true;
  let pos = 0;
  let line = 1;
  while (pos < text.length) {
    const start = line;
    const row = quotes ? readQuotedRow(text, pos, delimiter) : readPlainRow(text, pos, delimiter);
    if (row === undefined)
      throw new ImportFileError(file, start, 'the file ends inside a quoted field (truncated, or an unbalanced `"`)');
    pos = row.end;
    line += row.breaks;
    if (row.fields.length === 1 && row.fields[0] === '') continue;
    yield { line: start, fields: row.fields, terminated: row.terminated };
  }
}

interface RawRow {
  fields: string[];
  /** Offset just past the row's line break. */
  end: number;
  /** Line breaks consumed, inside quoted fields included. */
  breaks: number;
  terminated: boolean;
}

function readPlainRow(text: string, pos: number, delimiter: string): RawRow {
  const nl = text.indexOf('\n', pos);
  const terminated = nl >= 0;
  const end = terminated ? nl + 1 : text.length;
  const body = text.slice(pos, terminated ? nl : text.length).replace(/\r$/, '');
  return { fields: body.split(delimiter), end, breaks: terminated ? 1 : 0, terminated };
}

/** One RFC 4180 row from `pos`; undefined when the text ends inside a quoted field. */
function readQuotedRow(text: string, pos: number, delimiter: string): RawRow | undefined {
  const fields: string[] = [];
  let field = '';
  let breaks = 0;
  let i = pos;
  let atFieldStart = true;
  while (i < text.length) {
    const c = text[i]!;
    if (atFieldStart && c === '"') {
      const quoted = readQuoted(text, i + 1);
      if (quoted === undefined) return undefined;
      field += quoted.value;
      breaks += quoted.breaks;
      i = quoted.end;
      atFieldStart = false;
    } else if (text.startsWith(delimiter, i)) {
      fields.push(field);
      field = '';
      i += delimiter.length;
      atFieldStart = true;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      fields.push(field);
      const end = i + (c === '\r' ? 2 : 1);
      return { fields, end, breaks: breaks + 1, terminated: true };
    } else {
      field += c;
      i++;
      atFieldStart = false;
    }
  }
  fields.push(field);
  return { fields, end: text.length, breaks, terminated: false };
}

/** The body of a quoted field starting after its opening quote. */
function readQuoted(text: string, from: number): { value: string; end: number; breaks: number } | undefined {
  let value = '';
  let breaks = 0;
  let i = from;
  for (;;) {
    const close = text.indexOf('"', i);
    if (close < 0) return undefined;
    const chunk = text.slice(i, close);
    value += chunk;
    breaks += countBreaks(chunk);
    if (text[close + 1] === '"') {
      value += '"';
      i = close + 2;
    } else {
      return { value, end: close + 1, breaks };
    }
  }
}

function countBreaks(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** A data row of a file with a header, by column name. */
export interface HeaderedRow {
  line: number;
  /** Column name → value ('' for a column the row lacks). */
  values: Record<string, string>;
  /** Set when the row has a different number of fields from the header: the row is not trustworthy. */
  shape?: string;
}

/**
 * Rows of a delimited file whose first row names its columns. A header lacking one of
 * `required` is an ImportFileError at line 1; a data row with too few or too many fields
 * comes with `shape` saying so, for the importer to reject.
 */
export function* headeredRows(
  text: string,
  file: string,
  required: readonly string[],
  options: DelimitedOptions = {},
): Generator<HeaderedRow> {
  const rows = parseDelimited(text, file, options);
  const first = rows.next();
  if (first.done === true) throw new ImportFileError(file, 1, 'the file has no header row');
  const columns = first.value.fields.map((f) => f.trim());
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new ImportFileError(
      file,
      first.value.line,
      `the header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (it has ${columns.join(', ')})`,
    );
  for (const row of rows) {
    const values = Object.fromEntries(columns.map((c, i) => [c, row.fields[i] ?? '']));
    yield row.fields.length === columns.length
      ? { line: row.line, values }
      : { line: row.line, values, shape: shapeProblem(row, columns.length) };
  }
}

/** Words for a row with the wrong number of fields. */
export function shapeProblem(row: SourceRow, expected: number): string {
  const cut = row.terminated ? '' : ': the file ends inside this row (truncated?)';
  return `${row.fields.length} field${row.fields.length === 1 ? '' : 's'}, expected ${expected}${cut}`;
}
