#!/usr/bin/env node
// `npm run bench:rest`: GET /v1/ballot end to end on the demo data (saturated beside a bare
// express handler, and paced at the 500 req/s), and the CPU a 304 costs against the
// 200 it replaces. Writes its section of BENCHMARKS.md (between <!-- bench:rest:start -->
// and <!-- bench:rest:end -->).
//
// Run after `npm run build`. The stack runs in this process, as `civicgraph up` runs it
// (V8's default young generation), and re-spawns itself with --expose-gc (garbage is
// collected outside the CPU windows). Knobs: see rest/config.mjs. Extra node flags pass
// through: `node --expose-gc --max-semi-space-size=64 scripts/bench/rest.mjs` measures with a
// 64 MB young generation (p99 about four times worse on 2026-11-23).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const args = ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const { main } = await import('./rest/main.mjs');
await main();
