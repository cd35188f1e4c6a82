import { jsonCells, NdjsonLines, type Cell, type Column, type TableRow } from '../columns.js';
import { csvRowBound, encodeCsvRow } from './csv-row.js';
import { ParquetFile } from './parquet-file.js';
import { TextFile, type WrittenText } from './text-file.js';
import type { Written } from './written.js';

/** A file as its writer left it: its size and SHA-256, and for gzip the length of its text. */
export type SinkWritten = Written & { textBytes?: number };

/**
 * One file of a table being written: rows in (each with its cells, made once for every
 * format), then closed (or destroyed on failure). `write` returns a promise only when the
 * caller must wait (a full stream): most rows cost no await.
 */
export interface Sink {
  write(row: TableRow, cells: readonly Cell[]): Promise<void> | undefined;
  close(): Promise<SinkWritten>;
  destroy(): void;
}

/** Gzip NDJSON: each row as the API shows it, one JSON object a line. */
export function ndjsonSink(path: string, columns: readonly Column[]): Sink {
  const file = new TextFile(path, true);
  const lines = new NdjsonLines(jsonCells(columns));
  return {
    write: (row, cells) => file.writePieces(lines.pieces(row, cells)),
    close: (): Promise<WrittenText> => file.close(),
    destroy: () => file.destroy(),
  };
}

/** CSV (RFC 4180): a header of the table's columns, then one flattened row a line. */
export function csvSink(path: string, columns: readonly Column[]): Sink {
  const file = new TextFile(path, false);
  // The header is buffered first: the file holds at least it, and no row precedes it.
  void file.write(columns.map((c) => csvField(c.name)).join(',') + '\r\n');
  return {
    write: (_, cells) => file.writeWith(csvRowBound(cells), (chunk, at) => encodeCsvRow(cells, chunk, at)),
    close: () => file.close(),
    destroy: () => file.destroy(),
  };
}

/** Parquet: the flattened rows, typed per column. */
export function parquetSink(path: string, columns: readonly Column[]): Sink {
  const file = new ParquetFile(path, columns);
  return {
    write: (_, cells) => {
      file.write(cells);
      return undefined;
    },
    close: async () => file.close(),
    destroy: () => file.destroy(),
  };
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A CSV field: quoted (with quotes doubled) when it holds a comma, quote or line break; empty for null. */
export function csvField(value: Cell): string {
  if (value === null) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
