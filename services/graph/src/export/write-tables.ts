import { join } from 'node:path';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import { cellsOf, EDGE_COLUMNS, NODE_COLUMNS, TableColumns, type Column, type TableRow } from './columns.js';
import { csvSink, ndjsonSink, parquetSink, type Sink, type SinkWritten } from './formats/sinks.js';
import { writeBoundaries, type BoundarySource } from './boundaries.js';
import { ExportRows } from './rows.js';
import type { ExportFormat, ExportSpec } from './spec.js';

/** A file written into the staging folder, before it is verified. */
export interface WrittenFile {
  name: string;
  /** A node kind, `edges`, or `boundaries`. */
  table: string;
  /** The boundaries are a GeoJSON sequence whatever the formats asked. */
  format: ExportFormat | 'geojsonseq';
  rows: number;
  path: string;
  /** What the writer handed to the disk, for the verifier to check the file against. */
  written: SinkWritten;
}

/** Progress: rows written so far of the rows the export holds. */
export type Progress = (written: number, total: number) => void;

const EXTENSIONS: Readonly<Record<ExportFormat, string>> = { ndjson: 'ndjson.gz', csv: 'csv', parquet: 'parquet' };

/**
 * Rows read to learn a table's columns before it is written. Rows after them rarely bring a
 * new key or type (a kind's documents share a shape); when one does, the table is written again.
 */
const SAMPLE = 1_000;

/** A row of a table, undefined when the item read is not in the export; a promise only when deciding must read. */
type RowOf = TableRow | undefined | Promise<TableRow | undefined>;

/**
 * A table of the export: the items it is made from in the snapshot (nodes of a kind, or
 * edges), each one's row, its fixed columns, and how many rows it holds. Items are shaped
 * into rows where they are read, not through another async generator: each level of those
 * cost a whole-graph export about 0.3 s.
 */
interface Table<T> {
  name: string;
  items: () => AsyncIterable<T>;
  rowOf(item: T): RowOf;
  base: readonly Column[];
  count: () => Promise<number>;
}

/** Each row of a table, in order. */
async function* rowsOf<T>(table: Table<T>): AsyncIterable<TableRow> {
  for await (const item of table.items()) {
    const row = await table.rowOf(item);
    if (row !== undefined) yield row;
  }
}

/**
 * Writes every table of an export (one per node kind asked, then `edges`) into `dir`, in
 * each format asked, from one snapshot. Each table is read once, writing every format at
 * once, with the columns learned from its first rows; a later row that does not fit them
 * (a new key, or a value that changes a column's type) has the table written again after
 * a pass that learns the columns from every row. Memory holds the rows in flight, not the table.
 */
export async function writeTables(
  snapshot: GraphSnapshot,
  principal: Principal,
  spec: ExportSpec,
  dir: string,
  progress: Progress,
  boundaries?: { source: BoundarySource; date: string },
): Promise<WrittenFile[]> {
  const rows = new ExportRows(principal, spec);
  const tables: Table<NodeDoc | EdgeDoc>[] = spec.kinds.map((kind) => {
    const table: Table<NodeDoc> = {
      name: kind,
      items: () => snapshot.nodes(kind),
      rowOf: (node) => (rows.includes(node) ? rows.nodeRow(node) : undefined),
      base: NODE_COLUMNS,
      count: () => (rows.everyNode ? snapshot.countNodes(kind) : countRows(table)),
    };
    return table;
  });
  if (spec.edges) {
    const table: Table<EdgeDoc> = {
      name: 'edges',
      items: () => snapshot.edges(),
      rowOf: (edge) => rows.edgeRow(edge, snapshot),
      base: EDGE_COLUMNS,
      count: () => (rows.everyEdge ? snapshot.countEdges() : countRows(table)),
    };
    tables.push(table);
  }
  let total = 0;
  for (const table of tables) total += await table.count();
  let before = 0;
  progress(0, total);
  const files: WrittenFile[] = [];
  for (const table of tables) {
    const written = await writeTable(table, spec.formats, dir, (n) => {
      if (n % 5_000 === 0) progress(before + n, total);
    });
    before += written[0]?.rows ?? 0;
    files.push(...written);
  }
  progress(before, total);
  if (boundaries !== undefined && spec.kinds.includes('region')) {
    const file = await writeBoundaries(snapshot, rows, principal, boundaries.source, boundaries.date, dir);
    if (file !== undefined) files.push(file);
  }
  return files;
}

/** The rows an export holds of a table, read one by one (when a narrowed export cannot count them otherwise). */
async function countRows<T>(table: Table<T>): Promise<number> {
  let count = 0;
  for await (const _ of rowsOf(table)) count++;
  return count;
}

/** A table's columns, learned from its first `limit` rows. */
async function learnColumns<T>(table: Table<T>, limit: number): Promise<TableColumns> {
  const columns = new TableColumns(table.base);
  let seen = 0;
  for await (const row of rowsOf(table)) {
    columns.observe(row.data);
    if (++seen >= limit) break;
  }
  return columns;
}

/** Writes a table in every format: with the columns of its first rows, else (a row did not fit) with every row's. */
async function writeTable<T>(
  table: Table<T>,
  formats: readonly ExportFormat[],
  dir: string,
  onRows: (n: number) => void,
): Promise<WrittenFile[]> {
  const sampled = await learnColumns(table, SAMPLE);
  const written = await writeFiles(table, sampled, formats, dir, onRows);
  if (written !== undefined) return written;
  const surveyed = await learnColumns(table, Infinity);
  // Every row fits the columns learned from every row.
  return (await writeFiles(table, surveyed, formats, dir, onRows))!;
}

/**
 * Writes a table's files; undefined (the files closed, to be written again) when a row
 * does not fit the columns.
 */
async function writeFiles<T>(
  table: Table<T>,
  learned: TableColumns,
  formats: readonly ExportFormat[],
  dir: string,
  onRows: (n: number) => void,
): Promise<WrittenFile[] | undefined> {
  const columns = learned.columns();
  const files = formats.map((format) => {
    const name = `${table.name}.${EXTENSIONS[format]}`;
    const path = join(dir, name);
    return { name, table: table.name, format, path, sink: sinkFor(format, path, columns) };
  });
  let rows = 0;
  try {
    for await (const item of table.items()) {
      let row = table.rowOf(item);
      if (row instanceof Promise) row = await row;
      if (row === undefined) continue;
      if (!learned.fits(row.data)) {
        // Closed, not destroyed: nothing still in flight may land in the file written next.
        for (const f of files) await f.sink.close();
        return undefined;
      }
      const cells = cellsOf(row, columns);
      for (const f of files) {
        const full = f.sink.write(row, cells);
        if (full !== undefined) await full;
      }
      onRows(++rows);
    }
    const written: WrittenFile[] = [];
    for (const { sink, ...file } of files) written.push({ ...file, rows, written: await sink.close() });
    return written;
  } catch (err) {
    for (const f of files) f.sink.destroy();
    throw err;
  }
}

function sinkFor(format: ExportFormat, path: string, columns: readonly Column[]): Sink {
  if (format === 'ndjson') return ndjsonSink(path, columns);
  return format === 'csv' ? csvSink(path, columns) : parquetSink(path, columns);
}
