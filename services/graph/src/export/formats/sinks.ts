import { cell, type Column, type TableRow } from '../columns.js';
import { ParquetFile } from './parquet-file.js';
import { TextFile } from './text-file.js';

/**
 * One file of a table being written: rows in, then closed (or destroyed on failure). `write`
 * returns a promise only when the caller must wait (a full stream): most rows cost no await.
 */
export interface Sink {
  write(row: TableRow): Promise<void> | undefined;
  close(): Promise<void>;
  destroy(): void;
}

/** Gzip NDJSON: each row as the API shows it, one JSON object a line. */
export function ndjsonSink(path: string): Sink {
  const file = new TextFile(path, true);
  return {
    write: (row) => file.write(JSON.stringify(row) + '\n'),
    close: () => file.close(),
    destroy: () => file.destroy(),
  };
}

/** CSV (RFC 4180): a header of the table's columns, then one flattened row a line. */
export function csvSink(path: string, columns: readonly Column[]): Sink {
  const file = new TextFile(path, false);
  // The header is buffered first: the file holds at least it, and no row precedes it.
  void file.write(columns.map((c) => csvField(c.name)).join(',') + '\r\n');
  return {
    write: (row) => file.write(columns.map((c) => csvField(cell(c.get(row), c.type))).join(',') + '\r\n'),
    close: () => file.close(),
    destroy: () => file.destroy(),
  };
}

/** Parquet: the flattened rows, typed per column. */
export function parquetSink(path: string, columns: readonly Column[]): Sink {
  const file = new ParquetFile(path, columns);
  return {
    // JSON columns go in as values: the writer encodes them as JSON text itself.
    write: (row) => {
      file.write(columns.map((c) => (c.type === 'json' ? (c.get(row) ?? null) : cell(c.get(row), c.type))));
      return undefined;
    },
    close: async () => file.close(),
    destroy: () => file.destroy(),
  };
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A CSV field: quoted (with quotes doubled) when it holds a comma, quote or line break; empty for null. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
