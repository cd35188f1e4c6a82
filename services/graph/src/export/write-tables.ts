import { join } from 'node:path';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
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

/** A table of the export: its rows in the snapshot, its fixed columns, and how many rows it holds. */
interface Table {
  name: string;
  rows: () => AsyncIterable<TableRow>;
  base: readonly Column[];
  count: () => Promise<number>;
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
  const tables: Table[] = spec.kinds.map((kind) => {
    const nodes = async function* (): AsyncIterable<TableRow> {
      for await (const node of snapshot.nodes(kind)) if (rows.includes(node)) yield rows.nodeRow(node);
    };
    const count = () => (rows.everyNode ? snapshot.countNodes(kind) : countRows(nodes()));
    return { name: kind, rows: nodes, base: NODE_COLUMNS, count };
  });
  if (spec.edges) {
    const edges = async function* (): AsyncIterable<TableRow> {
      for await (const edge of snapshot.edges()) {
        const row = await rows.edgeRow(edge, snapshot);
        if (row !== undefined) yield row;
      }
    };
    const count = () => (rows.everyEdge ? snapshot.countEdges() : countRows(edges()));
    tables.push({ name: 'edges', rows: edges, base: EDGE_COLUMNS, count });
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
async function countRows(rows: AsyncIterable<TableRow>): Promise<number> {
  let count = 0;
  for await (const _ of rows) count++;
  return count;
}

/** A table's columns, learned from its first `limit` rows. */
async function learnColumns(table: Table, limit: number): Promise<TableColumns> {
  const columns = new TableColumns(table.base);
  let seen = 0;
  for await (const row of table.rows()) {
    columns.observe(row.data);
    if (++seen >= limit) break;
  }
  return columns;
}

/** Writes a table in every format: with the columns of its first rows, else (a row did not fit) with every row's. */
async function writeTable(
  table: Table,
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
async function writeFiles(
  table: Table,
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
    for await (const row of table.rows()) {
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
