// Workload (c): the national full-resolution set as `npm start` serves it, reached the way an
// operator reaches it — `civicgraph import boundaries` of the TIGER folder (timed, and again
// to show a re-import changes nothing), the other registry maps beside it — then read back
// from the boundary store as the geo service reads it, and the geo service's restart timed
// (first start builds and writes the index snapshot, the second maps it).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentials } from '@grpc/grpc-js';
import { loadBoundaries, LmdbBoundaryStore } from '@civicgraph/geo';
import { HealthClient } from '@civicgraph/protos/grpc/health/v1/health';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'services/cli/dist/bin.js');
const GEO = join(ROOT, 'services/geo/dist/main.js');
const CD = ['--level', 'congressional-district'];
/** The registry's dates (services/ingest/src/registry.ts). */
const TIGER_DATES = ['--valid-from', '2023-01-03', '--elections-from', '2022-01-01'];
const CD119_DATES = ['--valid-from', '2025-01-03', '--elections-from', '2024-01-01'];
const CO_LEG_DATES = ['--valid-from', '2023-01-03', '--elections-from', '2021-11-15'];

/**
 * Builds the data folder and returns the workload (regions keyed `slug@valid_from`, every
 * version the service holds), the import timings and the restart timings. `cleanup()`
 * removes the folder.
 */
export async function workloadC(shared, progress) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-bench-national-'));
  const cli = (args) => {
    const started = performance.now();
    const out = execFileSync(process.execPath, [CLI, 'import', 'boundaries', ...args], {
      env: { ...process.env, CIVIC_DATA_DIR: dir },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
    return { ms: performance.now() - started, out };
  };
  const tiger = `${shared}boundaries/congressional/tiger2022-cd118`;
  progress(`workload (c): civicgraph import boundaries ${tiger}`);
  const first = cli([tiger, ...CD, ...TIGER_DATES, '--json']);
  const again = cli([tiger, ...CD, ...TIGER_DATES, '--json']);
  const summary = JSON.parse(first.out);
  const resummary = JSON.parse(again.out);
  cli([`${shared}boundaries/congressional/us-cd119-20m.geojson`, ...CD, ...CD119_DATES]);
  const leg = `${shared}boundaries/state-legislative/co/`;
  cli([
    `${leg}co-state-senate-districts-2021.geojson`,
    '--level',
    'state-legislative-upper',
    '--state',
    'co',
    ...CO_LEG_DATES,
  ]);
  cli([
    `${leg}co-state-house-districts-2021.geojson`,
    '--level',
    'state-legislative-lower',
    '--state',
    'co',
    ...CO_LEG_DATES,
  ]);

  const store = LmdbBoundaryStore.open(join(dir, 'geo'));
  const regions = loadBoundaries({ files: [], populationCsv: undefined }, store.layers()).regions.map((r) => ({
    ...r,
    slug: `${r.slug}@${r.validity?.from ?? ''}`,
  }));
  await store.close();

  progress('workload (c): geo service start (builds and writes the snapshot), then a restart (maps it)');
  const cold = await timeGeoStart(dir);
  const warm = await timeGeoStart(dir);
  const warm2 = await timeGeoStart(dir);
  return {
    workload: {
      id: 'c',
      name: 'national: TIGER 2022 full resolution (46 states) + us-atlas states and counties + 119th CDs (1:20M) + CO senate and house (2021), every version the service holds',
      regions,
      bbox: { minLng: -125, maxLng: -66, minLat: 24, maxLat: 50 },
    },
    import: {
      files: summary.files.length,
      features: summary.features,
      created: summary.change.created.length,
      ms: first.ms,
      again: { ms: again.ms, ...countChanges(resummary.change) },
    },
    restart: { cold, warm: [warm, warm2] },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function countChanges(c) {
  return { created: c.created.length, updated: c.updated.length, deleted: c.deleted.length, unchanged: c.unchanged };
}

/** Spawns the geo service on the folder; ms from spawn to grpc.health SERVING, and how its index was had. */
async function timeGeoStart(dir) {
  const port = 52000 + Math.floor(Math.random() * 5000);
  const started = performance.now();
  const child = spawn(process.execPath, [GEO], {
    env: { ...process.env, CIVIC_DATA_DIR: dir, GEO_GRPC_PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  const status = () =>
    new Promise((resolve) =>
      client.check({ service: '' }, { deadline: Date.now() + 1000 }, (err, r) => resolve(err ? undefined : r.status)),
    );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`geo exited ${child.exitCode}: ${log.slice(-500)}`);
      if ((await status()) === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - started;
    const loaded = log
      .split('\n')
      .filter((l) => l.includes('"boundaries loaded"'))
      .map((l) => JSON.parse(l))
      .at(-1);
    return { ms, index: loaded?.index, loadMs: loaded?.ms };
  } finally {
    client.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.on('exit', r) : r()));
  }
}
