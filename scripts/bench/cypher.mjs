#!/usr/bin/env node
// `npm run bench:cypher`: civicgraph's Cypher layer (runCypher on the LmdbGraphStore) against
// kuzu (embedded Cypher, in memory) and the equivalent SQL on PostgreSQL, two queries on
// bench:graph's 200,000-candidacy synthetic graph. Writes its section of BENCHMARKS.md
// (between <!-- bench:cypher:start --> and <!-- bench:cypher:end -->). Run after
// `npm run build`; memory is measured after global.gc(), so without --expose-gc it re-spawns
// itself with it (the per-query civicgraph processes get it too). Knobs: see cypher/config.mjs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const args = ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const { main } = await import('./cypher/main.mjs');
await main();
