// The SQL peer: the same contests and candidacies in PostgreSQL tables with B-tree indexes on
// (region, date) and (contest, confidence); the same ballot requests answered by one join,
// timed inside the server per request (plpgsql, clock_timestamp, plan prepared once), with
// the JSON documents materialised as the graph service materialises its answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, freshDatabase, percentile, psql } from '../lib/psql.mjs';

const DB = 'civicgraph_bench_graph';

export const startPostgres = (port) => freshDatabase(port, DB);
export const stopPostgres = dropDatabase;

export const tsv = (v) => String(v).replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n');

/** Loads the documents and requests; returns the build time (COPY + indexes + ANALYZE) and size. */
export function loadPostgres(pg, nodes, requests) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-graph-pg-'));
  try {
    const contests = nodes.filter((n) => n.kind === 'contest');
    const candidacies = nodes.filter((n) => n.kind === 'candidacy');
    writeFileSync(
      join(dir, 'contests.tsv'),
      contests
        .map((c) => [c.slug, c.data.region, c.data.date, c.state, c.tier, JSON.stringify(c)].map(tsv).join('\t'))
        .join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'candidacies.tsv'),
      candidacies
        .map((c) =>
          [c.slug, c.data.fields.contest.value, c.data.confidence, c.state, c.tier, JSON.stringify(c)]
            .map(tsv)
            .join('\t'),
        )
        .join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'requests.tsv'),
      requests
        .map((r, i) => [i, `{${['region:us', ...r.regions].join(',')}}`, r.date, r.minConfidence].join('\t'))
        .join('\n') + '\n',
    );
    const sql = join(dir, 'load.sql');
    writeFileSync(
      sql,
      `
SELECT clock_timestamp() AS t0 \\gset
CREATE TABLE contest (slug text PRIMARY KEY, region text NOT NULL, date date NOT NULL, state text, tier text, doc jsonb NOT NULL);
CREATE TABLE candidacy (slug text PRIMARY KEY, contest text NOT NULL, confidence real NOT NULL, state text, tier text, doc jsonb NOT NULL);
\\copy contest FROM '${join(dir, 'contests.tsv')}'
\\copy candidacy FROM '${join(dir, 'candidacies.tsv')}'
CREATE INDEX ON contest (region, date);
CREATE INDEX ON candidacy (contest, confidence);
ANALYZE contest; ANALYZE candidacy;
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS ms,
  pg_total_relation_size('contest') + pg_total_relation_size('candidacy') AS bytes \\gset
\\echo BUILD_MS :ms BYTES :bytes
CREATE TABLE req (i int PRIMARY KEY, regions text[], date date, min_confidence real);
\\copy req FROM '${join(dir, 'requests.tsv')}'
CREATE TABLE timing (i int, us double precision, n int);
CREATE OR REPLACE FUNCTION bench_ballots() RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record; t0 timestamptz; answer jsonb; n int;
BEGIN
  FOR r IN SELECT * FROM req ORDER BY i LOOP
    t0 := clock_timestamp();
    SELECT jsonb_agg(jsonb_build_array(c.doc, k.doc)), count(*) INTO answer, n
      FROM contest c JOIN candidacy k ON k.contest = c.slug
      WHERE c.region = ANY (r.regions) AND c.date = r.date AND k.confidence >= r.min_confidence;
    INSERT INTO timing VALUES (r.i, extract(epoch FROM clock_timestamp() - t0) * 1e6, n);
  END LOOP;
END $$;
`,
    );
    const out = psql(pg.port, DB, ['-f', sql]);
    const m = /BUILD_MS (\S+) BYTES (\S+)/.exec(out);
    return { ms: Number(m?.[1]), bytes: Number(m?.[2]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the loop twice (the first warms caches) and returns µs percentiles and answer sizes. */
export function timePostgres(pg) {
  psql(pg.port, DB, ['-c', 'SELECT bench_ballots()', '-c', 'TRUNCATE timing', '-c', 'SELECT bench_ballots()']);
  const rows = psql(pg.port, DB, ['-A', '-t', '-F', '\t', '-c', 'SELECT us, n FROM timing ORDER BY i'])
    .trim()
    .split('\n')
    .map((l) => l.split('\t').map(Number));
  const samples = Float64Array.from(rows.map((r) => r[0])).sort();
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    n: rows.length,
    perSec: (rows.length * 1e6) / total,
    p50us: percentile(samples, 0.5),
    p99us: percentile(samples, 0.99),
    sizes: rows.map((r) => r[1]),
  };
}
