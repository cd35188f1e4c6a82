// Orchestrates the graph benchmark: imports, then the synthetic ballot workload on the
// embedded store and on PostgreSQL, then the report.
import { config } from './config.mjs';
import { loadEmbedded, timeBallots } from './embedded.mjs';
import { benchImports, copyFecIntoPostgres } from './imports.mjs';
import { loadPostgres, startPostgres, stopPostgres, timePostgres } from './postgres.mjs';
import { writeGraphSection } from './report.mjs';
import { benchRegions, DATES, syntheticGraph } from './synthetic.mjs';

const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:graph ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

export async function main() {
  progress('imports through the CLI');
  const imports = benchImports(config);
  const pg = config.skipPg ? { unavailable: 'skipped (BENCH_SKIP_PG=1)' } : startPostgres(config.pgPort);
  try {
    const copy = pg.unavailable === undefined ? copyFecIntoPostgres(pg, config) : undefined;
    progress(`synthetic graph: ${config.candidacies} candidacies`);
    const regions = benchRegions(config.shared);
    // Built twice (it is seeded): the documents are dropped before the ballots are timed, so
    // this process holds what a graph service holds, not a second copy of the graph.
    const built = () => syntheticGraph(regions, config.candidacies, config.ballots);
    const { graph, requests, loaded } = await (async () => {
      const { nodes, contests, requests } = built();
      const graph = {
        candidacies: nodes.filter((n) => n.kind === 'candidacy').length,
        contests,
        regions: regions.length,
        dates: DATES,
      };
      progress('embedded store: load, reopen, ballots');
      return { graph, requests, loaded: await loadEmbedded(nodes) };
    })();
    // Collect the dropped documents now, so their collection does not land inside the timing.
    globalThis.gc();
    globalThis.gc();
    const timing = await timeBallots(loaded.store, requests);
    const embedded = { loadMs: loaded.loadMs, openMs: loaded.openMs, bytes: loaded.bytes, stats: loaded.stats, timing };
    await loaded.cleanup();
    let pgRun;
    if (pg.unavailable === undefined) {
      progress('PostgreSQL: load, ballots');
      const build = loadPostgres(pg, built().nodes, requests);
      pgRun = { build, timing: timePostgres(pg) };
    } else {
      progress(`PostgreSQL unavailable: ${pg.unavailable}`);
    }
    writeGraphSection(config.output, {
      cfg: config,
      imports,
      copy,
      graph,
      embedded,
      pg,
      pgRun,
      ms: performance.now() - started,
    });
    progress(`wrote ${config.output}`);
  } finally {
    if (pg.unavailable === undefined) stopPostgres(pg);
  }
}
