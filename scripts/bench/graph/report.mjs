// The graph section of BENCHMARKS.md: targets (met or not, from this run), tables, method.
import { cpus } from 'node:os';
import { writeSection } from '../lib/section.mjs';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const us = (x) => (Number.isNaN(x) ? '—' : x < 100 ? x.toFixed(1) : int.format(x));
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const yes = (ok) => (ok ? '**met**' : '**not met**');

export function writeGraphSection(path, run) {
  writeSection(path, 'graph', renderGraphSection(run));
}

function agreement(a, b) {
  if (b === undefined) return '—';
  let same = 0;
  for (let i = 0; i < a.sizes.length; i++) if (a.sizes[i] === b.sizes[i]) same++;
  return `${((100 * same) / a.sizes.length).toFixed(2)} % of ${int.format(a.sizes.length)} ballots`;
}

export function renderGraphSection(run) {
  const { cfg, imports, copy, graph, embedded, pg, pgRun } = run;
  const e = embedded.timing;
  const lines = [
    '## Graph: real-data imports and the ballot query',
    '',
    `Written by \`npm run bench:graph\` (scripts/bench/graph.mjs) on ${new Date().toISOString().slice(0, 10)} in ${s(run.ms)}: ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, Node ${process.version}${pg.unavailable === undefined ? `, PostgreSQL ${pg.version}` : ''}. The machine is shared, so numbers are noisy.`,
    '',
    '| target | this run | |',
    '|---|---|---|',
    `| FEC 2026 + congress-legislators + OCD ids into the embedded store ≤ 30 s | ${s(imports.totalMs)} | ${yes(imports.totalMs <= 30_000)} |`,
    `| ballot for one point's regions ≤ 2 ms p99 in the graph service, ${int.format(graph.candidacies)} candidacies | p99 ${us(e.p99us)} µs (p50 ${us(e.p50us)} µs) | ${yes(e.p99us <= 2000)} |`,
    `| memory reported | embedded store's indexes after a restart: ${mb(embedded.bytes)} (heap + array buffers), reopened in ${s(embedded.openMs)} | reported |`,
    '',
    '### Imports (the CLI, fresh embedded store)',
    '',
    '| import | wall time | rows | created | updated | unchanged | rejected | events |',
    '|---|---|---|---|---|---|---|---|',
    ...imports.runs.map(
      (r) =>
        `| ${r.kind} | ${s(r.ms)} | ${int.format(r.rows)} | ${int.format(r.created)} | ${r.updated} | ${r.unchanged} | ${r.rejected} | ${int.format(r.events)} |`,
    ),
    `| fec-candidates again (must change nothing) | ${s(imports.again.ms)} | ${int.format(imports.again.rows)} | ${imports.again.created} | ${imports.again.updated} | ${int.format(imports.again.unchanged)} | ${imports.again.rejected} | ${imports.again.events} |`,
    '',
    copy === undefined
      ? 'PostgreSQL reference: unavailable.'
      : `Reference floor, not a like-for-like peer: PostgreSQL \`COPY\` of the raw weball26.txt into a 30-column text table (no parsing, no graph, no provenance) takes ${int.format(copy.ms)} ms in the server.`,
    '',
    `### Ballot query: ${int.format(graph.candidacies)} synthetic candidacies in ${int.format(graph.contests)} contests`,
    '',
    `${int.format(graph.regions)} regions (us-atlas states and counties, 119th Congress districts), contests on ${graph.dates.length} election days, 4 candidacies each with every field filled. ${int.format(cfg.ballots)} requests: a random county with its state and a district of that state, a random election day, min_confidence 0 or 0.3.`,
    '',
    '| engine | ballots/s (one core) | p50 µs | p99 µs | load | size | same candidacy count as civicgraph |',
    '|---|---|---|---|---|---|---|',
    `| **civicgraph graph service** (\`ballot()\` on LmdbGraphStore) | ${int.format(e.perSec)} | ${us(e.p50us)} | ${us(e.p99us)} | ${s(embedded.loadMs)} (commits of 5,000 documents) | ${mb(embedded.bytes)} in memory; index estimate ${mb(embedded.stats.indexBytes ?? 0)} | — |`,
    pgRun === undefined
      ? `| PostgreSQL | ${pg.unavailable ?? 'skipped'} | | | | | |`
      : `| PostgreSQL ${pg.version} (join, B-tree indexes, timed in the server) | ${int.format(pgRun.timing.perSec)} | ${us(pgRun.timing.p50us)} | ${us(pgRun.timing.p99us)} | ${s(pgRun.build.ms)} (COPY + indexes + ANALYZE) | ${mb(pgRun.build.bytes)} on disk | ${agreement(e, pgRun.timing)} |`,
    '',
    '### Method',
    '',
    "- **civicgraph**: the graph service's own `ballot()` query function (scope, min_confidence and the national region applied as in production; contests, their candidacies, and the offices, regions, people, parties and provenance they cite resolved into civic.graph.v1 messages), called in this process on an `LmdbGraphStore` reopened from disk (the generated documents released and collected first, so the process holds what a graph service holds), after a 500-request warm-up, with `--max-semi-space-size=64` as the graph service is deployed (without it, scavenges of the default 16 MB young generation land on about one ballot in 40 and p99 roughly triples). Each sample is one `process.hrtime.bigint()` pair around one request.",
    '- **PostgreSQL**: `contest(slug, region, date, …, doc jsonb)` and `candidacy(slug, contest, confidence, …, doc jsonb)` with indexes on `(region, date)` and `(contest, confidence)`; one join per request returning the contest and candidacy documents (`jsonb_agg`), run by a plpgsql loop (plan prepared once) between `clock_timestamp()` calls, the second of two passes. It resolves no cited nodes, so it does less work per request than civicgraph.',
    "- **Memory**: `heapUsed + arrayBuffers` after `global.gc()` around reopening the store (the in-memory indexes a restart rebuilds from LMDB), and the store's own `stats().indexBytes` estimate.",
    '- **Imports**: `civicgraph import <kind> … --json` as separate processes, wall time each, on a fresh CIVIC_DATA_DIR.',
  ];
  return lines.join('\n');
}
