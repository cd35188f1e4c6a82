// The embedded Cypher peer: kuzu, in memory, holding the same nodes and edges. One node table
// per label with every scalar property civicgraph's Cypher schema gives that label, read by
// the schema's own readers (lists and JSON, the contact properties, are left out: no query
// here reads them); one relationship table per edge type with the FROM/TO pairs present.
// Loaded by COPY FROM temporary CSV files; the same Cypher text, prepared once, timed with
// its rows materialised in JavaScript as civicgraph's are.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import kuzu from 'kuzu';
import { labelOf, propertiesOf } from '../../../services/graph/dist/cypher/schema.js';
import { summarise, timed } from './samples.mjs';

const SCALAR = { STRING: 'STRING', INT64: 'INT64', DOUBLE: 'DOUBLE', BOOLEAN: 'BOOLEAN', DATE: 'DATE' };
const kindOf = (slug) => slug.slice(0, slug.indexOf(':'));

// kuzu reads an empty field, quoted or not, as null ('' states of national nodes become null;
// no query here reads them).
const csvField = (v) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? `"${v.replaceAll('"', '""')}"` : String(v);
const csvLine = (values) => values.map(csvField).join(',');

// Map.groupBy is Node 21's; the engines field allows Node 20.
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [item]);
    else g.push(item);
  }
  return groups;
}

/** An in-memory kuzu database holding the nodes and edges; the COPY time and the connection. */
export async function loadKuzu(nodes, edges) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-kuzu-'));
  try {
    const statements = [...nodeTables(dir, nodes), ...relTables(dir, edges)];
    const db = new kuzu.Database(':memory:');
    const conn = new kuzu.Connection(db);
    const t0 = performance.now();
    for (const s of statements) (await conn.query(s)).close();
    return {
      conn,
      loadMs: performance.now() - t0,
      version: kuzu.VERSION,
      threads: availableParallelism(),
      close: async () => {
        await conn.close();
        await db.close();
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CREATE NODE TABLE and COPY per label; writes the CSV files. */
function nodeTables(dir, nodes) {
  const byKind = groupBy(nodes, (n) => n.kind);
  const out = [];
  for (const [kind, docs] of byKind) {
    const props = Object.entries(propertiesOf(kind)).filter(([, p]) => SCALAR[p.type] !== undefined);
    const file = join(dir, `${kind}.csv`);
    writeFileSync(
      file,
      [csvLine(props.map(([name]) => name)), ...docs.map((d) => csvLine(props.map(([, p]) => p.read(d))))].join('\n') +
        '\n',
    );
    const columns = props.map(([name, p]) => `${name} ${SCALAR[p.type]}`).join(', ');
    out.push(`CREATE NODE TABLE ${labelOf(kind)}(${columns}, PRIMARY KEY(slug))`);
    out.push(`COPY ${labelOf(kind)} FROM '${file}' (HEADER=true)`);
  }
  return out;
}

/** CREATE REL TABLE per edge type (every FROM/TO pair present) and COPY per pair; writes the CSV files. */
function relTables(dir, edges) {
  const byPair = groupBy(edges, (e) => `${e.kind} ${labelOf(kindOf(e.from))} ${labelOf(kindOf(e.to))}`);
  const pairsOf = groupBy(
    [...byPair.keys()].map((k) => k.split(' ')),
    ([kind]) => kind,
  );
  const out = [];
  for (const [kind, pairs] of pairsOf)
    out.push(`CREATE REL TABLE ${kind}(${pairs.map(([, from, to]) => `FROM ${from} TO ${to}`).join(', ')})`);
  let i = 0;
  for (const [key, group] of byPair) {
    const [kind, from, to] = key.split(' ');
    const file = join(dir, `rel-${i++}.csv`);
    writeFileSync(file, ['from,to', ...group.map((e) => csvLine([e.from, e.to]))].join('\n') + '\n');
    out.push(`COPY ${kind} FROM '${file}' (from='${from}', to='${to}', HEADER=true)`);
  }
  return out;
}

/** Times one query (prepared once; rows fetched to JavaScript each run); rows as arrays in column order. */
export async function timeKuzu(conn, query, cfg) {
  const prepared = await conn.prepare(query.cypher);
  if (!prepared.isSuccess()) throw new Error(`kuzu cannot prepare ${query.id}: ${prepared.getErrorMessage()}`);
  const once = async () => {
    const result = await conn.execute(prepared, query.parameters);
    const rows = await result.getAll();
    result.close();
    return rows;
  };
  const { answer, samples } = await timed(once, cfg.warmup, cfg.runs);
  return { timing: summarise(samples), samples, rows: answer.map((r) => Object.values(r)) };
}
