// The real-data importers through the CLI, as an operator runs them: OCD ids, then
// congress-legislators, then FEC 2026 candidates, into a fresh embedded store; then the FEC
// import again (it must change nothing). The SQL reference: PostgreSQL COPY of the same raw
// FEC file into a 30-column text table, which parses nothing into a graph: a floor, not a peer.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { psql } from '../lib/psql.mjs';

function cli(cliPath, dataDir, args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cliPath, 'import', ...args, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, CIVIC_DATA_DIR: dataDir },
    maxBuffer: 256 << 20,
  });
  if (r.status !== 0) throw new Error(`civicgraph import ${args[0]} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  const s = JSON.parse(r.stdout);
  return {
    kind: args[0],
    ms: performance.now() - t0,
    rows: s.createdRows + s.updatedRows + s.unchangedRows + s.rejected.length,
    created: s.createdRows,
    updated: s.updatedRows,
    unchanged: s.unchangedRows,
    rejected: s.rejected.length,
    events: s.events,
  };
}

export function benchImports(cfg) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-import-'));
  const legislators = `${cfg.shared}officeholders/congress-legislators/legislators-current.yaml`;
  const fec = `${cfg.shared}candidates/fec/weball26.txt`;
  try {
    const runs = [
      cli(cfg.cli, dir, ['ocd', `${cfg.shared}ocd/country-us`, '--retrieved-at', '2026-03-19']),
      cli(cfg.cli, dir, ['legislators', legislators, '--retrieved-at', '2026-06-15']),
      cli(cfg.cli, dir, ['fec-candidates', fec, '--legislators', legislators]),
    ];
    const again = cli(cfg.cli, dir, ['fec-candidates', fec, '--legislators', legislators]);
    return { runs, totalMs: runs.reduce((s, r) => s + r.ms, 0), again };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** COPY of the raw FEC file into PostgreSQL (timed in the server). */
export function copyFecIntoPostgres(pg, cfg) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-copy-'));
  try {
    const cols = Array.from({ length: 30 }, (_, i) => `c${i} text`).join(', ');
    const sql = join(dir, 'copy.sql');
    writeFileSync(
      sql,
      `CREATE TABLE fec_raw (${cols});
SELECT clock_timestamp() AS t0 \\gset
\\copy fec_raw FROM '${cfg.shared}candidates/fec/weball26.txt' WITH (FORMAT text, DELIMITER '|', NULL '')
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS ms \\gset
\\echo COPY_MS :ms
`,
    );
    const out = psql(pg.port, 'civicgraph_bench_graph', ['-f', sql]);
    return { ms: Number(/COPY_MS (\S+)/.exec(out)?.[1]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
