import kuzu, { type Connection, type Database, type KuzuValue } from 'kuzu';
import { cypherSchema, labelOf, propertiesOf, type PropertyType } from '../src/cypher/schema.js';
import { NODE_KINDS, type EdgeKind, type NodeKind } from '../src/model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../src/model/nodes.js';
import type { GraphStore } from '../src/store/graph-store.js';
import { readGraph } from './read-graph.js';

/**
 * A second, independent Cypher engine holding the same graph: kuzu, embedded, in memory.
 * The differential test (src/cypher/oracle.int.test.ts) asks it and civicgraph the same
 * queries. Its tables come from the Cypher schema (schema.ts) and EDGE_ENDS, and its
 * relationship properties from the edges' own data, so a new kind or property needs no
 * change here. Answers come back as civicgraph's runCypher gives scalar columns (lists and
 * maps of scalars included); nodes and relationships as values are not translated.
 */
export interface OracleAnswer {
  columns: string[];
  rows: unknown[][];
}

/** How kuzu stores each schema type; JSON properties have no column (and no query names them). */
const KUZU_TYPES: Record<PropertyType, string | undefined> = {
  STRING: 'STRING',
  INT64: 'INT64',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  // Kept as text, so that comparing a date with a 'YYYY-MM-DD' literal means the same in both engines.
  DATE: 'STRING',
  'STRING[]': 'STRING[]',
  JSON: undefined,
};

interface Column {
  name: string;
  type: string;
  read: (value: unknown) => unknown;
}

export class KuzuOracle {
  private constructor(
    private readonly db: Database,
    private readonly conn: Connection,
  ) {}

  /** A kuzu database holding every node and edge of the store. */
  static async load(store: GraphStore): Promise<KuzuOracle> {
    // A small buffer pool: the graph is a test graph, and the machine is shared. One thread:
    // with two, kuzu 0.11 sometimes sorts `ORDER BY a, b DESC` wrongly (seen in 2 runs of 3).
    const db = new kuzu.Database(':memory:', 256 * 1024 * 1024);
    const oracle = new KuzuOracle(db, new kuzu.Connection(db, 1));
    const { nodes, edges } = await readGraph(store);
    const slugKind = new Map([...nodes.values()].flat().map((n) => [n.slug, n.kind]));
    const relColumns = relationshipColumns(edges);
    await oracle.createTables(relColumns);
    for (const [kind, docs] of nodes) await oracle.insertNodes(kind, docs);
    for (const [type, list] of edges) await oracle.insertEdges(type, list, relColumns.get(type)!, slugKind);
    return oracle;
  }

  /**
   * Runs a query as openCypher means it (see `asKuzu`); a kuzu error is thrown as is.
   * Parameters go through kuzu's Node binding, which reads an empty list as null.
   */
  async run(query: string, parameters: Record<string, unknown> = {}): Promise<OracleAnswer> {
    const prepared = await this.conn.prepare(asKuzu(query));
    if (!prepared.isSuccess()) throw new Error(prepared.getErrorMessage());
    const result = last(await this.conn.execute(prepared, parameters as Record<string, KuzuValue>));
    const columns = await result.getColumnNames();
    const rows = (await result.getAll()).map((r) => columns.map((c) => fromKuzu(r[c] ?? null)));
    result.close();
    return { columns, rows };
  }

  async close(): Promise<void> {
    await this.conn.close();
    await this.db.close();
  }

  private async exec(statement: string, params: Record<string, unknown> = {}): Promise<void> {
    const prepared = await this.conn.prepare(statement);
    if (!prepared.isSuccess()) throw new Error(`${prepared.getErrorMessage()}\n${statement}`);
    last(await this.conn.execute(prepared, params as Record<string, KuzuValue>)).close();
  }

  private async createTables(relColumns: ReadonlyMap<EdgeKind, Column[]>): Promise<void> {
    for (const kind of NODE_KINDS) {
      const cols = nodeColumns(kind).map((c) => `${quote(c.name)} ${c.type}`);
      await this.exec(`CREATE NODE TABLE ${labelOf(kind)}(${cols.join(', ')}, PRIMARY KEY(slug))`);
    }
    for (const { type, from, to } of cypherSchema().relationships) {
      const pairs = from.flatMap((f) => to.map((t) => `FROM ${f} TO ${t}`));
      const cols = (relColumns.get(type) ?? []).map((c) => `${quote(c.name)} ${c.type}`);
      await this.exec(`CREATE REL TABLE ${type}(${[...pairs, ...cols].join(', ')})`);
    }
  }

  private async insertNodes(kind: NodeKind, docs: readonly NodeDoc[]): Promise<void> {
    const cols = nodeColumns(kind);
    const props = assignments(cols);
    const statement = `UNWIND $rows AS r CREATE (:${labelOf(kind)} {${props}})`;
    for (const batch of chunks(docs, 500)) {
      const rows = batch.map((d) => fields(cols, d));
      await this.exec(statement, { rows, ...separator(cols) });
    }
  }

  private async insertEdges(
    type: EdgeKind,
    edges: readonly EdgeDoc[],
    cols: readonly Column[],
    slugKind: ReadonlyMap<string, NodeKind>,
  ): Promise<void> {
    // kuzu creates a relationship between nodes of named tables: one statement per pair of labels.
    const byEnds = new Map<string, EdgeDoc[]>();
    for (const e of edges) {
      const ends = `${slugKind.get(e.from)}|${slugKind.get(e.to)}`;
      const list = byEnds.get(ends);
      if (list === undefined) byEnds.set(ends, [e]);
      else list.push(e);
    }
    const props = assignments(cols);
    for (const [ends, list] of byEnds) {
      const [from, to] = ends.split('|') as [NodeKind, NodeKind];
      const statement =
        `UNWIND $rows AS r MATCH (a:${labelOf(from)} {slug: r.from}), (b:${labelOf(to)} {slug: r.to}) ` +
        `CREATE (a)-[:${type} {${props}}]->(b)`;
      for (const batch of chunks(list, 500)) {
        const rows = batch.map((e) => ({ from: e.from, to: e.to, ...fields(cols, e.data) }));
        await this.exec(statement, { rows, ...separator(cols) });
      }
    }
  }
}

/**
 * The query in kuzu's dialect where it departs from openCypher's meaning: a variable-length
 * relationship is a walk in kuzu unless marked TRAIL, and openCypher never uses a
 * relationship twice in a path. Only a `*` inside brackets that hold no quote is rewritten,
 * so a `*` in a string is left alone.
 */
export function asKuzu(query: string): string {
  return query.replace(/(\[[^\]'"]*?)\*\s*(?=\d|\.\.)/g, '$1* TRAIL ');
}

/**
 * `name: CAST(r.p0 AS type), …`: a row's fields are numbered (a property may be named as a
 * kuzu keyword, `end`, a field may not) and cast (kuzu types a field by the values in the
 * batch, text when they are all null). Lists travel as text, items joined by SEPARATOR:
 * kuzu's Node binding reads an empty list as null, and a list field whose first value is
 * null fails to bind. (So an item may not be '' nor hold the separator.)
 */
function assignments(cols: readonly Column[]): string {
  return cols
    .map((c, i) => {
      const value = c.type.endsWith('[]')
        ? `list_filter(string_split(CAST(r.p${i} AS STRING), $separator), x -> x <> '')`
        : `CAST(r.p${i} AS ${c.type})`;
      return `${quote(c.name)}: ${value}`;
    })
    .join(', ');
}

const SEPARATOR = '\u001f';

/** The separator parameter, when `assignments` names it (kuzu refuses a parameter it does not use). */
function separator(cols: readonly Column[]): { separator?: string } {
  return cols.some((c) => c.type.endsWith('[]')) ? { separator: SEPARATOR } : {};
}

/** A row's fields for `assignments`. */
function fields(cols: readonly Column[], source: unknown): Record<string, unknown> {
  return Object.fromEntries(
    cols.map((c, i) => {
      const v = c.read(source);
      return [`p${i}`, Array.isArray(v) ? v.join(SEPARATOR) : v];
    }),
  );
}

function last<T>(r: T | T[]): T {
  return Array.isArray(r) ? r[r.length - 1]! : r;
}

/** A name as kuzu reads it whatever it is (`end`, a HOLDS property, is a kuzu keyword). */
function quote(name: string): string {
  return `\`${name}\``;
}

function nodeColumns(kind: NodeKind): Column[] {
  return Object.entries(propertiesOf(kind)).flatMap(([name, spec]) => {
    const type = KUZU_TYPES[spec.type];
    return type === undefined ? [] : [{ name, type, read: (d: unknown) => spec.read(d as NodeDoc) ?? null }];
  });
}

/** A relationship type's properties: the keys its edges' data hold, typed by the values found. */
function relationshipColumns(edges: ReadonlyMap<EdgeKind, EdgeDoc[]>): Map<EdgeKind, Column[]> {
  const out = new Map<EdgeKind, Column[]>();
  for (const [type, list] of edges) {
    const types = new Map<string, Set<string>>();
    for (const e of list) {
      for (const [k, v] of Object.entries(e.data)) {
        if (v === null) continue;
        types.set(k, (types.get(k) ?? new Set()).add(scalarType(v)));
      }
    }
    const cols: Column[] = [];
    for (const [name, found] of types) {
      // Whole and fractional numbers are one DOUBLE column; anything else mixed has none.
      const numbers = found.size === 2 && found.has('INT64') && found.has('DOUBLE');
      const type = numbers ? 'DOUBLE' : found.size === 1 ? [...found][0]! : 'JSON';
      if (type === 'JSON') continue;
      cols.push({ name, type, read: (data) => (data as EdgeDoc['data'])[name] ?? null });
    }
    out.set(type, cols);
  }
  return out;
}

function scalarType(v: unknown): string {
  if (typeof v === 'string') return 'STRING';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'number') return Number.isInteger(v) ? 'INT64' : 'DOUBLE';
  return 'JSON';
}

function* chunks<T>(list: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}

/** A kuzu value as runCypher's JSON: integers wider than a double's (sum gives INT128) as numbers. */
function fromKuzu(v: KuzuValue): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(fromKuzu);
  if (v instanceof Date) return v.toISOString();
  if ('_id' in v || '_nodes' in v)
    throw new Error('The oracle compares scalar columns; return properties, not nodes or relationships.');
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromKuzu(x as KuzuValue)]));
}
