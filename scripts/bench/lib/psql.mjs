// psql and pgbench against the local PostgreSQL (127.0.0.1, user postgres, trust auth): the
// benchmarks' SQL peers, driven without a Node PostgreSQL driver.
import { spawnSync } from 'node:child_process';

const TIMEOUT_MS = 180_000;

/** Runs psql against a database; throws with its stderr on failure; returns stdout. */
export function psql(port, db, args) {
  const r = spawnSync(
    'psql',
    ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', db, ...args],
    { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 64 << 20 },
  );
  if (r.error !== undefined) throw new Error(`psql: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`psql exited ${r.status}: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * A benchmark's own database, dropped and created anew: `{ port, db, version }`, or
 * `{ unavailable }` saying why PostgreSQL cannot be used (the report states it).
 */
export function freshDatabase(port, db) {
  try {
    psql(port, 'postgres', ['-c', `DROP DATABASE IF EXISTS ${db}`, '-c', `CREATE DATABASE ${db}`]);
    const version = psql(port, db, ['-A', '-t', '-c', "SELECT split_part(version(), ' ', 2)"]).trim();
    return { port, db, version };
  } catch (err) {
    return { unavailable: String(err.message).replace(/\s+/g, ' ').slice(0, 200) };
  }
}

/** Drops a database `freshDatabase` made; best effort. */
export function dropDatabase(pg) {
  try {
    psql(pg.port, 'postgres', ['-c', `DROP DATABASE IF EXISTS ${pg.db}`]);
  } catch {
    // best effort
  }
}

/** The q-quantile of an ascending array (nearest rank). */
export function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
