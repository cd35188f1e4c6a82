// The SQL peer: the same rows in PostgreSQL, a table per node kind (slug, kind, state, tier,
// rev, updated_at, data jsonb) and one of edges (kind, from, to, key, data jsonb), then every
// table written out by the server with `COPY <table> TO '<file>' (FORMAT csv, HEADER)`,
// timed inside the server between clock_timestamp() calls: what "PostgreSQL exports its
// tables as CSV" costs on this machine.
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, freshDatabase, psql } from '../lib/psql.mjs';
import { tsv } from '../graph/postgres.mjs';

const DB = 'civicgraph_bench_export';

export const startPostgres = (port) => freshDatabase(port, DB);
export const stopPostgres = dropDatabase;

/** Loads the tables; then times COPY TO of every table, `runs` times; returns each run's ms and the rows. */
export function copyOut(pg, nodes, edges, runs) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-export-pg-'));
  // The server process writes the CSV files: the folder must be its to write.
  chmodSync(dir, 0o777);
  try {
    const kinds = [...new Set(nodes.map((n) => n.kind))].sort();
    const load = [];
    for (const kind of kinds) {
      const rows = nodes.filter((n) => n.kind === kind);
      writeFileSync(
        join(dir, `${kind}.tsv`),
        rows
          .map((n) => [n.slug, n.kind, n.state, n.tier, n.rev, n.updatedAt, JSON.stringify(n.data)].map(tsv).join('\t'))
          .join('\n') + '\n',
      );
      load.push(
        `CREATE TABLE n_${kind} (slug text PRIMARY KEY, kind text, state text, tier text, rev int, updated_at text, data jsonb);`,
        `\\copy n_${kind} FROM '${join(dir, `${kind}.tsv`)}'`,
      );
    }
    writeFileSync(
      join(dir, 'edges.tsv'),
      edges.map((e) => [e.kind, e.from, e.to, e.key, JSON.stringify(e.data)].map(tsv).join('\t')).join('\n') + '\n',
    );
    load.push(
      'CREATE TABLE edges (kind text, "from" text, "to" text, key text, data jsonb);',
      `\\copy edges FROM '${join(dir, 'edges.tsv')}'`,
    );
    const tables = [...kinds.map((k) => `n_${k}`), 'edges'];
    const copies = tables.map((t) => `COPY ${t} TO '${join(dir, `${t}.csv`)}' (FORMAT csv, HEADER);`).join('\n');
    const timed = Array.from(
      { length: runs },
      (_, i) => `SELECT clock_timestamp() AS t0 \\gset
${copies}
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS ms \\gset
\\echo COPY_RUN ${i} :ms`,
    ).join('\n');
    const sql = join(dir, 'export.sql');
    writeFileSync(sql, `${load.join('\n')}\nVACUUM ANALYZE;\n${timed}\n`);
    const out = psql(pg.port, DB, ['-f', sql]);
    const ms = [...out.matchAll(/COPY_RUN \d+ (\S+)/g)].map((m) => Number(m[1]));
    return { ms, rows: nodes.length + edges.length, tables: tables.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
