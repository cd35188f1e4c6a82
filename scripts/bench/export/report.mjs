// The export section of BENCHMARKS.md: the targets (met or not, from this run), the files of a
// full export, and the method.
import { cpus } from 'node:os';
import { writeSection } from '../lib/section.mjs';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const yes = (ok) => (ok ? '**met**' : '**not met**');

export function writeExportSection(path, run) {
  writeSection(path, 'export', renderExportSection(run));
}

export function renderExportSection(run) {
  const { graph, pg, allFormats, csvOnly, sql } = run;
  const rows = allFormats.files.filter((f) => f.format === 'csv').reduce((n, f) => n + f.rows, 0);
  return [
    '## Bulk export: civicgraph against PostgreSQL `COPY … TO`',
    '',
    `Written by \`npm run bench:export\` (scripts/bench/export.mjs) on ${new Date().toISOString().slice(0, 10)} in ${s(run.ms)}: ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, Node ${process.version}${pg.unavailable === undefined ? `, PostgreSQL ${pg.version}` : ''}. The machine is shared, so numbers are noisy; each figure is the median (the lower middle) of ${run.cfg.runs} runs.`,
    '',
    `bench:cypher's graph (bench:graph's synthetic documents with their party and office nodes and edges): ${int.format(graph.candidacies)} candidacies, ${int.format(graph.nodes)} nodes and ${int.format(graph.edges)} edges; ${int.format(rows)} rows exported per format.`,
    '',
    '| target | this run | |',
    '|---|---|---|',
    sql === undefined
      ? `| full export in all formats within 2× PostgreSQL \`COPY … TO\` CSV of the same rows | ${s(allFormats.ms)}; PostgreSQL ${pg.unavailable} | — |`
      : `| full export in all formats within 2× PostgreSQL \`COPY … TO\` CSV of the same rows | ${s(allFormats.ms)} against ${s(sql.median)}: ${(allFormats.ms / sql.median).toFixed(2)}× | ${yes(allFormats.ms <= 2 * sql.median)} |`,
    `| the worker's memory under 300 MB | peak anonymous memory ${mb(allFormats.anonPeak)} (RSS with the LMDB file's pages it read: ${mb(allFormats.rssPeak)}) | ${yes(allFormats.anonPeak < 300 * 1048576)} |`,
    '',
    '| export | median | runs | peak anonymous memory | peak RSS |',
    '|---|---|---|---|---|',
    `| civicgraph, NDJSON.gz + CSV + Parquet, verified and published | ${s(allFormats.ms)} | ${allFormats.runsMs.map(s).join(', ')} | ${mb(allFormats.anonPeak)} | ${mb(allFormats.rssPeak)} |`,
    `| civicgraph, CSV alone, verified and published | ${s(csvOnly.ms)} | ${csvOnly.runsMs.map(s).join(', ')} | ${mb(csvOnly.anonPeak)} | ${mb(csvOnly.rssPeak)} |`,
    sql === undefined
      ? `| PostgreSQL \`COPY … TO\` CSV | ${pg.unavailable} | | | |`
      : `| PostgreSQL \`COPY <table> TO '<file>' (FORMAT csv, HEADER)\`, ${sql.tables} tables | ${s(sql.median)} | ${sql.ms.map(s).join(', ')} | (server) | |`,
    '',
    '| file | rows | bytes |',
    '|---|---|---|',
    ...allFormats.files.filter((f) => f.rows > 0).map((f) => `| ${f.name} | ${int.format(f.rows)} | ${mb(f.bytes)} |`),
    '',
    '### Method',
    '',
    "- civicgraph: the graph is loaded into an LmdbGraphStore as bench:graph loads it, then each export runs in a fresh Node process with default flags (as export-worker-main.js runs it) that opens the store's directory with `LmdbSnapshots` (one LMDB read transaction; the graph is not loaded into memory) and calls `runExport` — the worker's own path: one pass per table writing every format at once (its row count from the store's keys, its columns from its first 1,000 rows, checked against every row), each row's nested values serialised to JSON once for all three formats, each file read back and verified against what was written (size and SHA-256 hashed while writing; gzip header and trailer length; Parquet footer row count), published, the manifest last. The time is from opening the store to the manifest published. Memory: the target is read as the worker's own memory, its peak `RssAnon` (heap, buffers, native allocations; sampled every 20 ms from /proc/self/status); its peak RSS (`maxRSS`) also counts the LMDB file's pages it has read, which are the OS page cache, shared with the graph service and reclaimable, and grow with the store's size.",
    "- Rows are shaped for an unrestricted Enterprise key with `contact` (the policy's fast path: no scope lookups per edge). NDJSON is gzip level 1; Parquet is hyparquet-writer's Snappy, 4,000 rows per row group; CSV flattens each node's data keys to columns, nested values as JSON.",
    '- PostgreSQL: a table per node kind (slug, kind, state, tier, rev, updated_at, data jsonb) and one of edges, loaded with `\\copy`, `VACUUM ANALYZE`d; the timed part is `COPY <table> TO <file> (FORMAT csv, HEADER)` of every table in one psql session, between `clock_timestamp()` calls, written by the server to local disk. It neither verifies nor compresses.',
  ].join('\n');
}
