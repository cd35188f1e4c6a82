// The Cypher section of BENCHMARKS.md: targets (met or not, from this run), per-query times
// on the three engines, civicgraph's memory and budget, where its time goes, method.
import { cpus } from 'node:os';
import { writeSection } from '../lib/section.mjs';
import { Q2_N, Q2_STATE, QUERIES } from './queries.mjs';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const ms = (x) =>
  x === undefined || Number.isNaN(x) ? '—' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : int.format(x);
const s = (x) => `${(x / 1000).toFixed(1)} s`;
const mb = (bytes) => (bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${(bytes / 1048576).toFixed(1)} MB`);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const yes = (ok) => (ok ? '**met**' : '**not met**');
const PROFILE_TOP = 8;

/** A query civicgraph refused (past the budget) or failed, with where it was thrown. */
const failure = (c) =>
  `${c.error.kind === 'refused' ? 'refused by the budget' : '**failed**'}: ${c.error.message.replaceAll('|', '\\|')}${c.error.at === '' ? '' : ` (thrown at \`${c.error.at}\`)`}`;

export function writeCypherSection(path, run) {
  writeSection(path, 'cypher', renderCypherSection(run));
}

export function renderCypherSection(run) {
  const { graph, pg } = run;
  return [
    '## Cypher: civicgraph against kuzu and PostgreSQL',
    '',
    `Written by \`npm run bench:cypher\` (scripts/bench/cypher.mjs) on ${new Date().toISOString().slice(0, 10)} in ${s(run.ms)}: ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, Node ${process.version}, kuzu ${run.kuzu.version}${pg.unavailable === undefined ? `, PostgreSQL ${pg.version}` : ''}. The machine is shared, so numbers are noisy.`,
    '',
    `bench:graph's synthetic graph: ${int.format(graph.candidacies)} candidacies in ${int.format(graph.contests)} contests (exactly 4 each), with ${int.format(graph.offices)} offices and ${int.format(graph.parties)} parties added for the queries to reach, ${int.format(graph.nodes)} nodes and ${int.format(graph.edges)} edges (FOR_CONTEST, OF_PARTY, FOR_OFFICE).`,
    '',
    ...targets(run),
    '',
    ...QUERIES.flatMap((q) => queryTables(run, q)),
    ...memoryTable(run),
    '',
    ...profiles(run),
    ...method(run),
  ].join('\n');
}

function targets(run) {
  const lines = ['| target | this run | |', '|---|---|---|'];
  for (const q of QUERIES) {
    const c = run.civic.answers[q.id];
    const k = run.kuzu.answers[q.id].timing.medianMs;
    const p = run.sql?.answers[q.id].timing.medianMs;
    if (c.error !== undefined) {
      lines.push(
        `| ${q.id}, ${q.title}: ≤ 3× kuzu | civicgraph ${failure(c)}; kuzu median ${ms(k)} ms | **not met** |`,
        `| ${q.id}: faster than the SQL on PostgreSQL | civicgraph gave no answer${p === undefined ? '' : `; PostgreSQL median ${ms(p)} ms`} | **not met** |`,
        `| ${q.id}: memory bounded by the budget | no answer to measure | — |`,
      );
      continue;
    }
    const m = c.timing.medianMs;
    lines.push(
      `| ${q.id}, ${q.title}: ≤ 3× kuzu | median ${ms(m)} ms against ${ms(k)} ms: ${ratio(m, k)} | ${yes(m <= 3 * k)} |`,
      p === undefined
        ? `| ${q.id}: faster than PostgreSQL | PostgreSQL ${run.pg.unavailable} | — |`
        : `| ${q.id}: faster than the SQL on PostgreSQL | median ${ms(m)} ms against ${ms(p)} ms: ${ratio(m, p)} | ${yes(m < p)} |`,
      `| ${q.id}: memory bounded by the budget | ${int.format(c.stats.rowsExamined)} of ${int.format(c.budget.rowsExamined)} rows examined; heap high-water ${mb(c.memory.heapPeakGrowth)} above the idle store, of the ${int.format(c.budget.memoryMb)} MB the budget lets a query grow it | ${yes(c.stats.rowsExamined <= c.budget.rowsExamined && c.memory.heapPeakGrowth <= c.budget.memoryMb * 2 ** 20)} |`,
    );
  }
  return lines;
}

function queryTables(run, q) {
  const c = run.civic.answers[q.id];
  const k = run.kuzu.answers[q.id];
  const p = run.sql?.answers[q.id];
  const row = (engine, t, load) =>
    `| ${engine} | ${ms(t.medianMs)} | ${ms(t.p95Ms)} | ${ms(t.minMs)} | ${ms(t.maxMs)} | ${load} |`;
  return [
    `### ${q.id}: ${q.title}`,
    '',
    '```cypher',
    q.cypher,
    '```',
    '',
    `${Object.keys(q.parameters).length === 0 ? '' : `Parameters ${JSON.stringify(q.parameters)}. `}${int.format(run.rows[q.id])} rows, the same in every engine that answered.${q.id === 'q2' ? ` Every synthetic contest has exactly 4 candidacies, so \`n > ${Q2_N}\` keeps every contest of ${Q2_STATE.toUpperCase()} (the WHERE is evaluated on every group but narrows nothing).` : ''}`,
    '',
    `| engine (${run.cfg.runs} runs after ${run.cfg.warmup} warm-up) | median ms | p95 ms | min ms | max ms | loaded in |`,
    '|---|---|---|---|---|---|',
    c.error === undefined
      ? row(
          '**civicgraph** (`runCypher`, LmdbGraphStore, Enterprise key)',
          c.timing,
          `${s(run.civic.load.loadMs)} (LMDB commits), reopened in ${s(c.openMs)}`,
        )
      : `| **civicgraph** (\`runCypher\`, LmdbGraphStore, Enterprise key) | ${failure(c)} | | | | |`,
    row(`kuzu ${run.kuzu.version} (in memory, ${run.kuzu.threads} threads)`, k.timing, `${s(run.kuzu.loadMs)} (COPY)`),
    p === undefined
      ? `| PostgreSQL | ${run.pg.unavailable} | | | | |`
      : row(
          `PostgreSQL ${run.pg.version} (SQL, timed in the server)`,
          p.timing,
          `${s(run.sql.build.ms)} (COPY, columns, indexes, VACUUM ANALYZE; ${mb(run.sql.build.bytes)})`,
        ),
    '',
    '<details><summary>SQL</summary>',
    '',
    '```sql',
    q.sql,
    '```',
    '',
    '</details>',
    '',
  ];
}

/** The read view's build, as q1's process measured it. */
function viewText(view) {
  if (view === undefined) return '';
  return ` The evaluator walks the store's read view (store/read-view.ts: dense ids, typed columns, adjacency as compressed sparse rows), which the first query after the store opens or changes builds and the next change drops: built in ${ms(view.ms)} ms, holding ${mb(view.bytes)} more.`;
}

function memoryTable(run) {
  const budget = run.civic.answers[QUERIES[0].id].budget;
  const lines = [
    "### civicgraph's memory per query",
    '',
    `The store reopened from disk holds ${mb(run.civic.load.bytes)} of indexes (heap + array buffers; the store's own estimate ${mb(run.civic.load.stats.indexBytes ?? 0)}).${viewText(run.civic.answers[QUERIES[0].id].view)} Enterprise budget (kit \`cypherBudget\`): ${int.format(budget.rowsExamined)} rows examined, ${int.format(budget.rowsReturned)} returned, ${budget.timeMs / 1000} s, ${int.format(budget.memoryMb)} MB of heap growth (the meter reads the heap every 50,000 rows examined and refuses past it, so the projection at the rows budget below is what the memory budget prevents).`,
    '',
    '| query | rows examined | heap high-water above the idle store | per row examined | at the budget (projected) | heap kept after | RSS idle → peak | collections |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const q of QUERIES) {
    const c = run.civic.answers[q.id];
    if (c.error !== undefined) {
      lines.push(`| ${q.id} | ${c.error.kind}: no answer to measure | | | | | | |`);
      continue;
    }
    const m = c.memory;
    const perRow = m.heapPeakGrowth / Math.max(1, c.stats.rowsExamined);
    const peak =
      m.rssPeakAfter > m.rssPeakAfterOpen ? mb(m.rssPeakAfter) : `≤ ${mb(m.rssPeakAfterOpen)} (the reopen's peak)`;
    lines.push(
      `| ${q.id} | ${int.format(c.stats.rowsExamined)} | ${mb(m.heapPeakGrowth)} | ${int.format(perRow)} B | ${mb(perRow * c.budget.rowsExamined)} | ${mb(Math.max(0, m.retainedHeap))} | ${mb(m.idleRss)} → ${peak} | ${m.collections} |`,
    );
  }
  return lines;
}

function profiles(run) {
  const lines = [];
  for (const q of QUERIES) {
    const p = run.civic.answers[q.id].profile;
    if (p === undefined) continue;
    lines.push(
      `### Where civicgraph's time goes: ${q.id} (one profiled run, ${ms(p.totalMs)} ms sampled; top ${PROFILE_TOP} functions by self time)`,
      '',
      '| self ms | share | function | where |',
      '|---|---|---|---|',
      ...p.functions
        .slice(0, PROFILE_TOP)
        .map(
          (f) =>
            `| ${ms(f.ms)} | ${(100 * f.share).toFixed(1)} % | \`${f.name}\` | ${f.where === '' ? '' : `\`${f.where}\``} |`,
        ),
      '',
    );
  }
  return lines;
}

function method(run) {
  return [
    '### Method',
    '',
    `- **Data**: bench:graph's seeded synthetic graph (scripts/bench/graph/synthetic.mjs) at ${int.format(run.cfg.candidacies)} candidacies, plus what its ballot benchmark does not need and the queries walk (scripts/bench/cypher/edges.mjs): a party node per party cited, an office node per office cited, and the FOR_CONTEST, OF_PARTY and FOR_OFFICE edges the writer would store. The same documents go to all three engines.`,
    "- **civicgraph**: loaded by bench:graph's loader into an LmdbGraphStore; each query then runs in a process of its own that reopens the store from disk (as the graph service holds it, `--max-semi-space-size=64` as deployed) and calls `runCypher` with an unrestricted Enterprise principal (environment test, contact entitlement, no state or tier limits), min_confidence 0. Wall time per call (`process.hrtime`), parsing and output conversion included. Then one run with V8's GC profiler on: the heap high-water mark is the largest heap seen before any collection during the query (or at its end) minus the idle store's heap after `global.gc()`; RSS peak is the process's `maxRSS`. Then one run under the sampling profiler (0.25 ms; the .cpuprofile is kept in BENCH_CYPHER_PROFILE_DIR).",
    `- **kuzu**: \`new kuzu.Database(':memory:')\`, one node table per label with every scalar property civicgraph's Cypher schema gives it (read by the schema's own readers; list and JSON properties left out, no query reads them) and one relationship table per edge type, loaded by \`COPY FROM\` temporary CSV files. The same Cypher text, prepared once, executed with the same parameters and its rows fetched into JavaScript (\`getAll\`) each run; kuzu uses its default thread count (${run.kuzu.threads}), civicgraph one thread.`,
    "- **PostgreSQL**: bench:graph's tables and loader (`contest` and `candidacy` with their documents as jsonb, indexes on (region, date) and (contest, confidence)), plus `party(slug, name)` and `office(slug, name, …)` tables, the candidacy's party and the contest's office as stored generated columns, an index on `contest(state)`, then `VACUUM ANALYZE`. Each query runs in a plpgsql loop (plan prepared once) between `clock_timestamp()` calls with its rows materialised by `jsonb_agg`, warm-up runs dropped: server time, no client transfer. Default settings (parallel workers allowed).",
    '- **Agreement**: every engine\'s rows, in order, are compared before the report is written (strings sort by code point everywhere, `COLLATE "C"` in SQL); any difference stops the benchmark.',
    '- **Ratios** are of medians; the targets (issue 24) are civicgraph ≤ 3× kuzu and civicgraph < PostgreSQL for each query.',
  ];
}
