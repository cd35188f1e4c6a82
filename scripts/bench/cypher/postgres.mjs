// The SQL peer: bench:graph's PostgreSQL tables (contest and candidacy, with their documents,
// loaded by its loader), plus what the queries join to: party and office tables, each
// candidacy's party and each contest's office as stored columns (as a schema with foreign keys
// would have them), and an index on contest(state). Each query is timed inside the server by a
// plpgsql loop (plan prepared once) between clock_timestamp() calls, its rows materialised
// (jsonb_agg), as bench:graph times its ballots.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPostgres, tsv } from '../graph/postgres.mjs';
import { psql } from '../lib/psql.mjs';
import { summarise } from './samples.mjs';

const DB = 'civicgraph_bench_graph';

/** bench:graph's load, then the party and office tables and columns; the build time (ms) and size. */
export function loadSqlPeer(pg, nodes, requests) {
  const graphBuild = loadPostgres(pg, nodes, requests);
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-cypher-pg-'));
  try {
    const rows = (kind, cols) =>
      nodes
        .filter((n) => n.kind === kind)
        .map((n) => [...cols(n), JSON.stringify(n)].map(tsv).join('\t'))
        .join('\n') + '\n';
    writeFileSync(
      join(dir, 'party.tsv'),
      rows('party', (n) => [n.slug, n.data.name]),
    );
    writeFileSync(
      join(dir, 'office.tsv'),
      rows('office', (n) => [n.slug, n.data.name, n.state, n.tier]),
    );
    const sql = join(dir, 'peer.sql');
    writeFileSync(
      sql,
      `SELECT clock_timestamp() AS t0 \\gset
CREATE TABLE party (slug text PRIMARY KEY, name text NOT NULL, doc jsonb NOT NULL);
CREATE TABLE office (slug text PRIMARY KEY, name text NOT NULL, state text, tier text, doc jsonb NOT NULL);
\\copy party FROM '${join(dir, 'party.tsv')}'
\\copy office FROM '${join(dir, 'office.tsv')}'
ALTER TABLE candidacy ADD COLUMN party text GENERATED ALWAYS AS (doc #>> '{data,fields,party,value}') STORED;
ALTER TABLE contest ADD COLUMN office text GENERATED ALWAYS AS (doc #>> '{data,office}') STORED;
CREATE INDEX ON contest (state);
VACUUM ANALYZE party; VACUUM ANALYZE office; VACUUM ANALYZE contest; VACUUM ANALYZE candidacy;
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS ms,
  pg_total_relation_size('contest') + pg_total_relation_size('candidacy')
  + pg_total_relation_size('party') + pg_total_relation_size('office') AS bytes \\gset
\\echo PEER_MS :ms BYTES :bytes
CREATE TABLE cypher_timing (query text, run int, ms double precision, n int);
`,
    );
    const m = /PEER_MS (\S+) BYTES (\S+)/.exec(psql(pg.port, DB, ['-f', sql]));
    return { ms: graphBuild.ms + Number(m?.[1]), bytes: Number(m?.[2]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Times one query in the server (warm-up runs dropped); its rows as psql prints them. */
export function timeSql(pg, query, cfg) {
  const total = cfg.warmup + cfg.runs;
  psql(pg.port, DB, [
    '-c',
    `DO $$ DECLARE t0 timestamptz; answer jsonb; BEGIN
  FOR i IN 1..${total} LOOP
    t0 := clock_timestamp();
    SELECT jsonb_agg(to_jsonb(s)) INTO answer FROM (${query.sql}) s;
    INSERT INTO cypher_timing VALUES ('${query.id}', i, extract(epoch FROM clock_timestamp() - t0) * 1000, coalesce(jsonb_array_length(answer), 0));
  END LOOP;
END $$`,
  ]);
  const samples = psql(pg.port, DB, [
    '-A',
    '-t',
    '-c',
    `SELECT ms FROM cypher_timing WHERE query = '${query.id}' AND run > ${cfg.warmup} ORDER BY run`,
  ])
    .trim()
    .split('\n')
    .map(Number);
  const out = psql(pg.port, DB, ['-A', '-t', '-F', '\t', '-c', query.sql]);
  const rows =
    out === ''
      ? []
      : out
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => l.split('\t'));
  return { timing: summarise(samples), samples, rows };
}
