import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import type { Cell, Column, ColumnType } from '../columns.js';
import { StringStats } from './string-stats.js';
import { WrittenBytes, type Written } from './written.js';

/**
 * Rows per row group: what is held in memory before it is encoded and written. 4,000 keeps a
 * whole-graph worker well under 300 MB (10,000 took it to ~285 MB, for files 3 % smaller).
 */
const ROW_GROUP = 4_000;

/** Encoded bytes gathered before a write to the file. */
const CHUNK = 1 << 20;

/** Parquet's physical type and annotation of each column type. */
const ELEMENTS: Readonly<Record<ColumnType, Pick<SchemaElement, 'type' | 'converted_type'>>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  int: { type: 'INT32' },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
  // JSON text, typed as such: readers (DuckDB, Arrow) can parse it on demand.
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON' },
};

/**
 * A Parquet file written a row group at a time through hyparquet-writer (pure JavaScript,
 * no native build, maintained; @dsnp/parquetjs needs Node 24): rows are gathered into
 * columns, and every ROW_GROUP rows the group is encoded (Snappy) and appended to the file.
 *
 * A `json` column takes the cell's JSON text, already made for the other formats, as bytes.
 * hyparquet-writer would serialise a JSON-annotated column's values itself, so while row
 * groups are written its element carries no annotation (bytes are written as they are,
 * without min/max statistics, which mean nothing for JSON); the annotation is put back before
 * the footer, the only place a reader finds it.
 */
export class ParquetFile {
  private readonly writer: ParquetWriter;
  private readonly file: HashingFileWriter;
  private readonly json: SchemaElement[] = [];
  /** Per column: its statistics, made here for string columns (see StringStats). */
  private readonly stats: (StringStats | undefined)[];
  private values: unknown[][];

  constructor(
    private readonly path: string,
    private readonly columns: readonly Column[],
  ) {
    const elements = columns.map((c): SchemaElement => {
      const element: SchemaElement = { name: c.name, repetition_type: 'OPTIONAL', ...ELEMENTS[c.type] };
      if (c.type === 'json') {
        delete element.converted_type;
        this.json.push(element);
      }
      return element;
    });
    const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...elements];
    this.file = new HashingFileWriter(path);
    this.writer = new ParquetWriter({ writer: this.file, schema, createdBy: 'civicgraph export' });
    this.values = columns.map(() => []);
    this.stats = columns.map((c) => (c.type === 'string' ? new StringStats() : undefined));
  }

  write(cells: readonly Cell[]): void {
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      this.values[i]!.push(this.columns[i]!.type === 'json' && cell !== null ? Buffer.from(cell as string) : cell);
      this.stats[i]?.observe(cell as string | null);
    }
    if (this.values[0]!.length >= ROW_GROUP) this.flush();
  }

  /** Writes the last row group and the footer; what was written. */
  close(): Written {
    this.flush();
    for (const element of this.json) element.converted_type = 'JSON';
    void this.writer.finish();
    return this.file.written.done();
  }

  destroy(): void {
    this.file.close();
    rmSync(this.path, { force: true });
  }

  private flush(): void {
    const rows = this.values[0]!.length;
    if (rows === 0) return;
    const columnData = this.columns.map((c, i) => ({
      name: c.name,
      data: this.values[i]!,
      // JSON columns have none; string columns' are made here, put in below.
      statistics: c.type !== 'json' && c.type !== 'string',
      // Mostly a document's nested object (a candidacy's fields and their claims), which
      // nearly never repeats: deciding on a dictionary hashed a sample of every row group.
      // A small list that does repeat is left to Snappy.
      ...(c.type === 'json' ? { encoding: 'PLAIN' as const } : {}),
    }));
    void this.writer.write({ columnData, rowGroupSize: rows });
    this.putStringStats();
    this.values = this.columns.map(() => []);
  }

  /**
   * Puts the string columns' statistics in the row group just written, as hyparquet-writer
   * would have: min/max and null count, and the pages' encodings (its `encoding_stats`, which
   * it records only with statistics). Its row group and the column's page indexes are the
   * writer's public fields; parquet-file.test.ts checks the file is the one it writes itself.
   */
  private putStringStats(): void {
    const group = this.writer.row_groups.at(-1)!;
    const indexes = this.writer.pendingIndexes.slice(-this.columns.length);
    this.stats.forEach((stats, i) => {
      if (stats === undefined) return;
      const meta = group.columns[i]!.meta_data!;
      meta.statistics = stats.take();
      const pages = indexes[i]!.offsetIndex?.page_locations.length ?? 1;
      meta.encoding_stats = [
        ...(meta.dictionary_page_offset === undefined
          ? []
          : [{ page_type: 'DICTIONARY_PAGE' as const, encoding: 'PLAIN' as const, count: 1 }]),
        { page_type: 'DATA_PAGE_V2', encoding: meta.encodings.at(-1)!, count: pages },
      ];
    });
  }
}

/** hyparquet-writer's buffer, written to the file a chunk at a time and hashed as it goes. */
class HashingFileWriter extends ByteWriter {
  readonly written = new WrittenBytes();
  private fd: number | undefined;

  constructor(path: string) {
    super(CHUNK * 2);
    this.fd = openSync(path, 'w');
  }

  override ensure(size: number): void {
    if (this.index > CHUNK) this.flush();
    super.ensure(size);
  }

  /** Called by the ParquetWriter after each row group, and here when the buffer fills. */
  flush(): void {
    const chunk = new Uint8Array(this.buffer, 0, this.index);
    for (let at = 0; at < chunk.length;) at += writeSync(this.fd!, chunk, at);
    this.written.add(chunk);
    this.index = 0;
  }

  override finish(): void {
    this.flush();
    this.close();
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
