// Orchestrates the geo benchmark: each workload against every engine, then HTTP, then the report.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { config } from './config.mjs';
import { compare } from './agreement.mjs';
import { bruteForceAnswers, civicgraphEngine, timeEngine, timerOverheadNs, whichPolygonEngine } from './engines.mjs';
import { PostGis } from './postgis.mjs';
import { renderHttpOnly, renderSection, writeGeoSection } from './report.mjs';
import { boundaryPoints, uniformPoints, vertexCount, workloadA, workloadB } from './workloads.mjs';
import { workloadC } from './national.mjs';

const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:geo ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

export async function main() {
  if (config.httpOnly) {
    if (config.httpSeconds === 0) throw new Error('BENCH_HTTP_ONLY=1 needs BENCH_HTTP_SECONDS > 0');
    process.stdout.write(`${renderHttpOnly(runHttpBench())}\n`);
    return;
  }
  const pg = config.skipPg ? { unavailable: 'skipped (BENCH_SKIP_PG=1)' } : PostGis.start(config.pgPort);
  if (pg.unavailable !== undefined) progress(`PostGIS unavailable: ${pg.unavailable}`);
  const timerNs = timerOverheadNs();
  const workloads = [];
  try {
    workloads.push(await benchWorkload(workloadA(config.shared), pg));
    workloads.push(await benchWorkload(await workloadB(config.shared), pg));
    const national = await workloadC(config.shared, progress);
    try {
      workloads.push({
        ...(await benchWorkload(national.workload, pg)),
        import: national.import,
        restart: national.restart,
      });
    } finally {
      national.cleanup();
    }
  } finally {
    if (pg.unavailable === undefined) pg.stop();
  }
  const http = config.httpSeconds > 0 ? runHttpBench() : undefined;
  const section = renderSection({
    config,
    workloads,
    http,
    timerNs,
    postgis: pg.unavailable === undefined ? { version: pg.version } : pg,
    seconds: (performance.now() - started) / 1000,
  });
  writeGeoSection(config.output, section);
  process.stdout.write(`${section}\n`);
  progress(`wrote ${config.output}`);
}

/** The HTTP runs, in a fresh process (see http-main.mjs). */
function runHttpBench() {
  progress('http: starting its own process');
  const child = spawnSync(process.execPath, [fileURLToPath(new URL('./http-main.mjs', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (child.status !== 0) throw new Error(`http bench exited ${child.status ?? child.signal}`);
  return JSON.parse(child.stdout.toString('utf8'));
}

async function benchWorkload(w, pg) {
  progress(`workload (${w.id}): ${w.regions.length} regions`);
  const bySlug = new Map(w.regions.map((r) => [r.slug, r]));
  if (bySlug.size !== w.regions.length) throw new Error(`workload (${w.id}): duplicate slugs`);
  const sets = [uniformPoints(w.bbox, config.points, 1), boundaryPoints(w.regions, config.points, 2)];
  const civic = civicgraphEngine(w.regions);
  const peer = whichPolygonEngine(w.regions);
  const pgRun = pg.unavailable === undefined ? loadPostGis(pg, w, sets) : undefined;
  const result = {
    id: w.id,
    name: w.name,
    regions: w.regions.length,
    vertices: vertexCount(w.regions),
    bbox: w.bbox,
    builds: [
      buildRow(civic),
      buildRow(peer),
      ...(pgRun === undefined
        ? []
        : [{ engine: 'PostGIS', ms: pgRun.build.ms, bytes: pgRun.build.bytes, closedRings: pgRun.build.closedRings }]),
    ],
    resolution: civic.index.stats?.resolution,
    stats: civic.index.stats,
    pgbench: pgRun?.pgbench,
    sets: [],
  };
  sets.forEach((set, k) =>
    result.sets.push(benchSet(w, set, k, { civic, peer, pg: pgRun === undefined ? undefined : pg }, bySlug)),
  );
  return result;
}

function loadPostGis(pg, w, sets) {
  progress(`workload (${w.id}): loading PostGIS`);
  const build = pg.load(w.regions, sets);
  let pgbench;
  try {
    pgbench = config.pgbenchSeconds > 0 ? pg.pgbench(w.bbox, config.pgbenchSeconds) : undefined;
  } catch (err) {
    pgbench = { error: String(err.message).replace(/\s+/g, ' ').slice(0, 200) };
  }
  return { build, pgbench };
}

function buildRow(e) {
  return { engine: e.name, ms: e.built.ms, heapBytes: e.built.heapBytes, arrayBytes: e.built.arrayBytes };
}

function benchSet(w, set, k, engines, bySlug) {
  progress(`workload (${w.id}) ${set.name}: brute force`);
  const brute = bruteForceAnswers(engines.civic.index, set);
  const rows = [];
  for (const e of [engines.civic, engines.peer]) {
    progress(`workload (${w.id}) ${set.name}: ${e.name}`);
    const t = timeEngine(e, set, config.runs, config.engineSeconds * 1000);
    rows.push({ engine: e.name, ...t, vsBrute: compare(t.keys, brute.keys, set, bySlug) });
  }
  if (engines.pg !== undefined) {
    progress(`workload (${w.id}) ${set.name}: PostGIS`);
    const p = engines.pg.lookups(k, config.pgSeconds * 1000);
    for (const r of rows) r.vsPg = compare(r.keys, p.keys, set, bySlug, p.n);
    rows.push({ engine: 'PostGIS', ...p, vsBrute: compare(p.keys, brute.keys, set, bySlug, p.n) });
  }
  for (const r of rows) delete r.keys;
  return { name: set.name, n: set.lng.length, bruteUs: brute.usPerLookup, rows };
}
