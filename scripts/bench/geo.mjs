#!/usr/bin/env node
// `npm run bench:geo`: point-in-district lookups (civicgraph DistrictIndex against
// which-polygon and PostGIS, on the same polygons and points, in one run) and the
// /v1/districts_by_point endpoint end to end against a bare express app. Writes its
// section of BENCHMARKS.md (between <!-- bench:geo:start --> and <!-- bench:geo:end -->).
//
// Run after `npm run build`. Memory is measured after global.gc(), so without
// --expose-gc this script re-spawns itself with it. Knobs: see geo/config.mjs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const args = ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const { main } = await import('./geo/main.mjs');
await main();
