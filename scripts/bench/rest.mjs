#!/usr/bin/env node
// `npm run bench:rest`: GET /v1/ballot end to end on the demo data (saturated beside a bare
// express handler, and paced at the 500 req/s), and the CPU a 304 costs against the
// 200 it replaces. Writes its section of BENCHMARKS.md (between <!-- bench:rest:start -->
// and <!-- bench:rest:end -->).
//
// Run after `npm run build`. The stack runs in a process of its own, as `civicgraph up` runs
// it (V8's default young generation); node flags given to this script are passed to that
// process: `node --max-semi-space-size=64 scripts/bench/rest.mjs` measures the stack with a
// 64 MB young generation (p99 about four times worse on 2026-11-23). Knobs: see rest/config.mjs.
const { main } = await import('./rest/main.mjs');
await main();
