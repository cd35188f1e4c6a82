/**
 * Parses CSV text into records keyed by the header row (RFC 4180: quoted fields may hold
 * commas, doubled quotes and line breaks; CRLF or LF line ends; blank lines skipped).
 */
export function parseCsv(text: string): Record<string, string>[] {
  const rows = csvRows(text.replace(/^\uFEFF/, ''));
  const header = rows.shift() ?? [];
  return rows.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      pushRow(rows, [...row, field]);
      row = [];
      field = '';
    } else field += ch;
  }
  pushRow(rows, [...row, field]);
  return rows;
}

function pushRow(rows: string[][], row: string[]): void {
  if (row.length > 1 || row[0] !== '') rows.push(row);
}
