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

/** A table of the export: its rows in the snapshot, and the columns it flattens to. */
interface Table {
  name: string;
  rows: () => AsyncIterable<TableRow>;
  columns: Column[];
  count: number;
}

/**
 * Writes every table of an export (one per node kind asked, then `edges`) into `dir`, in
 * each format asked, from one snapshot. Two passes per table: the first counts the rows
 * and learns the flat columns (so headers and Parquet schemas precede the rows), the
 * second writes every format at once. Memory holds the rows in flight, not the table.
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
  const tables: Table[] = [];
  for (const kind of spec.kinds) {
    const nodes = async function* (): AsyncIterable<TableRow> {
      for await (const node of snapshot.nodes(kind)) if (rows.includes(node)) yield rows.nodeRow(node);
    };
    tables.push(await survey(kind, nodes, NODE_COLUMNS));
  }
  if (spec.edges) {
    const edges = async function* (): AsyncIterable<TableRow> {
      for await (const edge of snapshot.edges()) {
        const row = await rows.edgeRow(edge, snapshot);
        if (row !== undefined) yield row;
      }
    };
    tables.push(await survey('edges', edges, EDGE_COLUMNS));
  }
  const total = tables.reduce((n, t) => n + t.count, 0);
  let written = 0;
  progress(0, total);
  const files: WrittenFile[] = [];
  for (const table of tables) {
    files.push(
      ...(await writeTable(table, spec.formats, dir, () => {
        written++;
        if (written % 5_000 === 0) progress(written, total);
      })),
    );
  }
  progress(written, total);
  if (boundaries !== undefined && spec.kinds.includes('region')) {
    const file = await writeBoundaries(snapshot, rows, principal, boundaries.source, boundaries.date, dir);
    if (file !== undefined) files.push(file);
  }
  return files;
}

async function survey(name: string, rows: () => AsyncIterable<TableRow>, base: readonly Column[]): Promise<Table> {
  const columns = new TableColumns(base);
  let count = 0;
  for await (const row of rows()) {
    columns.observe(row.data);
    count++;
  }
  return { name, rows, columns: columns.columns(), count };
}

async function writeTable(
  table: Table,
  formats: readonly ExportFormat[],
  dir: string,
  onRow: () => void,
): Promise<WrittenFile[]> {
  const files = formats.map((format) => {
    const name = `${table.name}.${EXTENSIONS[format]}`;
    const path = join(dir, name);
    return { name, table: table.name, format, path, sink: sinkFor(format, path, table.columns) };
  });
  let rows = 0;
  const written: WrittenFile[] = [];
  try {
    for await (const row of table.rows()) {
      const cells = cellsOf(row, table.columns);
      for (const f of files) {
        const full = f.sink.write(row, cells);
        if (full !== undefined) await full;
      }
      rows++;
      onRow();
    }
    for (const { sink, ...file } of files) written.push({ ...file, rows, written: await sink.close() });
  } catch (err) {
    for (const f of files) f.sink.destroy();
    throw err;
  }
  return written;
}

function sinkFor(format: ExportFormat, path: string, columns: readonly Column[]): Sink {
  if (format === 'ndjson') return ndjsonSink(path, columns);
  return format === 'csv' ? csvSink(path, columns) : parquetSink(path, columns);
}
