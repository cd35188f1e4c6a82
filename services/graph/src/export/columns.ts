/**
 * The flat tables of CSV and Parquet: a node's fixed columns, then one column per key of its
 * data (sorted; a data key named like a fixed column is prefixed `data_`). A value that is
 * not a string, number or boolean (a list, an object, a candidacy's claims) is its JSON text.
 * The columns are known before a file's first row (its header and schema come first),
 * whatever the rows hold: learned from a table's first rows, and checked against every row
 * written (see write-tables.ts).
 */

/** A column's type: what Parquet stores it as (CSV writes every type as text). */
export type ColumnType = 'string' | 'int' | 'double' | 'boolean' | 'json';

export interface Column {
  name: string;
  type: ColumnType;
  /** The column's value in a row (a node row or an edge row). */
  get: (row: TableRow) => unknown;
  /** The data key a data column holds (fixed columns have none). */
  key?: string;
}

/** What a table's rows look like: their own fields, and their data. */
export interface TableRow {
  data: object;
}

const own = (name: string, type: ColumnType, field = name): Column => ({
  name,
  type,
  get: (row) => (row as unknown as Record<string, unknown>)[field],
});

export const NODE_COLUMNS: readonly Column[] = [
  own('slug', 'string'),
  own('kind', 'string'),
  own('state', 'string'),
  own('tier', 'string'),
  own('rev', 'int'),
  own('updated_at', 'string', 'updatedAt'),
];

export const EDGE_COLUMNS: readonly Column[] = [
  own('kind', 'string'),
  own('from', 'string'),
  own('to', 'string'),
  own('key', 'string'),
];

/** Learns the data columns of a table from its rows, and flattens rows onto them. */
export class TableColumns {
  private readonly fixed: ReadonlySet<string>;
  /** Data key → the JS types seen in it. */
  private readonly seen = new Map<string, Set<string>>();

  constructor(private readonly base: readonly Column[]) {
    this.fixed = new Set(base.map((c) => c.name));
  }

  /** Notes a row's data keys and the types of their values. */
  observe(data: object): void {
    for (const [key, value] of Object.entries(data)) {
      let types = this.seen.get(key);
      if (types === undefined) this.seen.set(key, (types = new Set()));
      if (value !== null && value !== undefined) types.add(typeName(value));
    }
  }

  /**
   * Whether observing `data` would leave `columns()` as it is: it has no key not seen yet,
   * and none of its values changes its column's type. Rows that fit need not be observed.
   */
  fits(data: object): boolean {
    for (const key of Object.keys(data)) {
      const types = this.seen.get(key);
      if (types === undefined) return false;
      const value = (data as Record<string, unknown>)[key];
      if (value === null || value === undefined) continue;
      const type = typeName(value);
      if (!types.has(type) && typeOf(new Set([...types, type])) !== typeOf(types)) return false;
    }
    return true;
  }

  /** Every column, fixed ones first, then the data's in key order. */
  columns(): Column[] {
    const data = [...this.seen.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, types]): Column => ({
        name: this.fixed.has(key) ? `data_${key}` : key,
        type: typeOf(types),
        get: (row) => (row.data as Record<string, unknown>)[key],
        key,
      }));
    return [...this.base, ...data];
  }
}

function typeName(value: unknown): string {
  return Array.isArray(value) ? 'array' : typeof value;
}

function typeOf(types: ReadonlySet<string>): ColumnType {
  if (types.size !== 1) return types.size === 0 ? 'string' : 'json';
  const [only] = types;
  return only === 'string' ? 'string' : only === 'number' ? 'double' : only === 'boolean' ? 'boolean' : 'json';
}

/** A column's value in a row, as every format writes it: JSON text for `json` columns, null when absent. */
export type Cell = string | number | boolean | null;

/** A column's value in a row: JSON text for `json` columns, null when absent. */
export function cell(value: unknown, type: ColumnType): Cell {
  if (value === undefined || value === null) return null;
  if (type === 'json') return JSON.stringify(value);
  return value as string | number | boolean;
}

/**
 * A row's cells, computed once for every format of the table: a nested value (a candidacy's
 * fields and claims, most of a row's bytes) is serialised to JSON here, once, and CSV,
 * Parquet and NDJSON (see `NdjsonLines`) all write that text.
 */
export function cellsOf(row: TableRow, columns: readonly Column[]): Cell[] {
  const cells = new Array<Cell>(columns.length);
  for (let i = 0; i < columns.length; i++) cells[i] = cell(columns[i]!.get(row), columns[i]!.type);
  return cells;
}

/**
 * A row's NDJSON line, newline included, as pieces to write one after another: together
 * exactly `JSON.stringify(row) + '\n'` (same keys, same order, same text), but a data value
 * held by a `json` column is its cell's JSON text, not serialised a second time, and is a
 * piece of its own: written as it is, not copied into one long line first (most of a
 * candidacy's bytes are its fields' text).
 */
export class NdjsonLines {
  /** Key → its JSON text and colon: a table's rows repeat the same few keys. */
  private readonly keys = new Map<string, string>();

  /** `dataText`: data key → the index of its `json` column (see `jsonCells`). */
  constructor(private readonly dataText: ReadonlyMap<string, number>) {}

  pieces(row: TableRow, cells: readonly Cell[]): string[] {
    const pieces: string[] = [];
    let text = '{';
    let first = true;
    const fields = row as unknown as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const value = fields[key];
      if (value === undefined) continue;
      text += (first ? '' : ',') + this.key(key);
      first = false;
      if (key === 'data' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        text = this.data(value as Record<string, unknown>, cells, pieces, text);
      } else text += JSON.stringify(value);
    }
    pieces.push(text + '}\n');
    return pieces;
  }

  /** Appends the data object to `text`, pushing pieces at each `json` cell; the text after the last. */
  private data(data: Record<string, unknown>, cells: readonly Cell[], pieces: string[], text: string): string {
    text += '{';
    let first = true;
    for (const key of Object.keys(data)) {
      const value = data[key];
      if (value === undefined) continue;
      text += (first ? '' : ',') + this.key(key);
      first = false;
      const i = this.dataText.get(key);
      if (i !== undefined && value !== null) {
        pieces.push(text, cells[i] as string);
        text = '';
      } else text += JSON.stringify(value);
    }
    return text + '}';
  }

  private key(key: string): string {
    let text = this.keys.get(key);
    if (text === undefined) this.keys.set(key, (text = JSON.stringify(key) + ':'));
    return text;
  }
}

/** Data key → the index of its `json` column: the keys whose NDJSON text is their cell. */
export function jsonCells(columns: readonly Column[]): Map<string, number> {
  const out = new Map<string, number>();
  columns.forEach((c, i) => {
    if (c.type === 'json' && c.key !== undefined) out.set(c.key, i);
  });
  return out;
}
