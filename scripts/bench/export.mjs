#!/usr/bin/env node
// `npm run bench:export`: a full bulk export (every table, NDJSON.gz + CSV + Parquet, and CSV
// alone) of bench:graph's 200,000-candidacy synthetic graph by civicgraph's export engine, in a
// worker process of its own reading the LMDB store's snapshot, against PostgreSQL `COPY … TO`
// CSV of the same rows, in the same run; the worker's peak memory measured. Writes its section
// of BENCHMARKS.md (between <!-- bench:export:start --> and <!-- bench:export:end -->). Run
// after `npm run build`; bench:graph's loader measures memory after global.gc(), so without
// --expose-gc this re-spawns itself with it. Knobs: see export/config.mjs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const args = ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const { main } = await import('./export/main.mjs');
await main();
