// Orchestrates the Cypher benchmark: bench:graph's synthetic graph with the edges the queries
// walk, then each query on civicgraph (a process per query on the reopened LMDB store), on
// kuzu in memory and as SQL on PostgreSQL; the rows compared; the report.
import { benchRegions, syntheticGraph } from '../graph/synthetic.mjs';
import { startPostgres, stopPostgres } from '../graph/postgres.mjs';
import { assertSameRows } from './agreement.mjs';
import { loadCivicgraph, runCivicgraph } from './civicgraph.mjs';
import { config } from './config.mjs';
import { edgesOf } from './edges.mjs';
import { loadKuzu, timeKuzu } from './kuzu.mjs';
import { loadSqlPeer, timeSql } from './postgres.mjs';
import { QUERIES } from './queries.mjs';
import { writeCypherSection } from './report.mjs';

const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:cypher ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

/** bench:graph's documents (one ballot request: its loader wants some) with the party and office nodes and edges. */
function buildGraph() {
  const { nodes, contests, requests } = syntheticGraph(benchRegions(config.shared), config.candidacies, 1);
  const added = edgesOf(nodes);
  const all = [...nodes, ...added.nodes];
  const count = (kind) => all.filter((n) => n.kind === kind).length;
  const summary = {
    candidacies: count('candidacy'),
    contests,
    offices: count('office'),
    parties: count('party'),
    nodes: all.length,
    edges: added.edges.length,
  };
  return { nodes: all, edges: added.edges, requests, summary };
}

async function benchCivicgraph(graph) {
  progress('civicgraph: LMDB load and reopen');
  const loaded = await loadCivicgraph(graph.nodes, graph.edges);
  try {
    const answers = {};
    for (const q of QUERIES) {
      progress(`civicgraph: ${q.id}`);
      answers[q.id] = await runCivicgraph(loaded.path, q, config);
    }
    return { load: loaded, answers };
  } finally {
    await loaded.cleanup();
  }
}

async function benchKuzu(graph) {
  progress('kuzu: COPY into memory');
  const db = await loadKuzu(graph.nodes, graph.edges);
  try {
    const answers = {};
    for (const q of QUERIES) {
      progress(`kuzu: ${q.id}`);
      answers[q.id] = await timeKuzu(db.conn, q, config);
    }
    return { loadMs: db.loadMs, version: db.version, threads: db.threads, answers };
  } finally {
    await db.close();
  }
}

function benchPostgres(pg, graph) {
  progress('PostgreSQL: load');
  const build = loadSqlPeer(pg, graph.nodes, graph.requests);
  const answers = {};
  for (const q of QUERIES) {
    progress(`PostgreSQL: ${q.id}`);
    answers[q.id] = timeSql(pg, q, config);
  }
  return { build, answers };
}

/** Every query's rows, from every engine that answered, must be the same (civicgraph's when it answered). */
function checkAgreement(civic, kuzu, sql) {
  const rows = {};
  for (const q of QUERIES) {
    const answers = [
      civic.answers[q.id].error === undefined ? { engine: 'civicgraph', rows: civic.answers[q.id].rows } : undefined,
      { engine: 'kuzu', rows: kuzu.answers[q.id].rows },
      sql === undefined ? undefined : { engine: 'PostgreSQL', rows: sql.answers[q.id].rows },
    ].filter((a) => a !== undefined);
    rows[q.id] = assertSameRows(q, answers);
  }
  return rows;
}

export async function main() {
  progress(`synthetic graph: ${config.candidacies} candidacies`);
  const graph = buildGraph();
  const civic = await benchCivicgraph(graph);
  const kuzu = await benchKuzu(graph);
  const pg = config.skipPg ? { unavailable: 'skipped (BENCH_SKIP_PG=1)' } : startPostgres(config.pgPort);
  try {
    const sql = pg.unavailable === undefined ? benchPostgres(pg, graph) : undefined;
    if (sql === undefined) progress(`PostgreSQL unavailable: ${pg.unavailable}`);
    const rows = checkAgreement(civic, kuzu, sql);
    writeCypherSection(config.output, {
      cfg: config,
      graph: graph.summary,
      civic,
      kuzu,
      pg,
      sql,
      rows,
      ms: performance.now() - started,
    });
    progress(`wrote ${config.output}`);
  } finally {
    if (pg.unavailable === undefined) stopPostgres(pg);
  }
}
