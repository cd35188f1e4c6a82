// Orchestrates the export benchmark: bench:cypher's graph (bench:graph's documents with their
// party and office nodes and edges) in an LMDB store, exported in all formats and as CSV alone
// by fresh worker processes, and the same rows copied out as CSV by PostgreSQL; the report.
import { benchRegions, syntheticGraph } from '../graph/synthetic.mjs';
import { edgesOf } from '../cypher/edges.mjs';
import { loadStore, runWorker } from './civicgraph.mjs';
import { config } from './config.mjs';
import { copyOut, startPostgres, stopPostgres } from './postgres.mjs';
import { writeExportSection } from './report.mjs';

const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:export ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function timeExports(path, formats) {
  const runs = [];
  for (let i = 0; i < config.runs; i++) {
    progress(`civicgraph: ${formats.join(' + ')}, run ${i + 1}/${config.runs}`);
    runs.push(await runWorker(path, formats));
  }
  return {
    ms: median(runs.map((r) => r.ms)),
    runsMs: runs.map((r) => r.ms),
    rssPeak: Math.max(...runs.map((r) => r.rssPeak)),
    anonPeak: Math.max(...runs.map((r) => r.anonPeak)),
    files: runs[0].files,
  };
}

export async function main() {
  progress(`synthetic graph: ${config.candidacies} candidacies`);
  const { nodes } = syntheticGraph(benchRegions(config.shared), config.candidacies, 1);
  const added = edgesOf(nodes);
  const all = [...nodes, ...added.nodes];
  const graph = {
    candidacies: all.filter((n) => n.kind === 'candidacy').length,
    nodes: all.length,
    edges: added.edges.length,
  };
  progress('civicgraph: LMDB load');
  const store = await loadStore(all, added.edges);
  let allFormats;
  let csvOnly;
  try {
    allFormats = await timeExports(store.path, ['csv', 'ndjson', 'parquet']);
    csvOnly = await timeExports(store.path, ['csv']);
  } finally {
    await store.cleanup();
  }
  const pg = config.skipPg ? { unavailable: 'skipped (BENCH_SKIP_PG=1)' } : startPostgres(config.pgPort);
  try {
    let sql;
    if (pg.unavailable === undefined) {
      progress('PostgreSQL: load and COPY TO');
      const copied = copyOut(pg, all, added.edges, config.runs);
      sql = { ...copied, median: median(copied.ms) };
    } else progress(`PostgreSQL unavailable: ${pg.unavailable}`);
    writeExportSection(config.output, {
      cfg: config,
      graph,
      allFormats,
      csvOnly,
      pg,
      sql,
      ms: performance.now() - started,
    });
    progress(`wrote ${config.output}`);
  } finally {
    if (pg.unavailable === undefined) stopPostgres(pg);
  }
}
