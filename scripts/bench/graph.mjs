#!/usr/bin/env node
// `npm run bench:graph`: the real-data importers (OCD ids, congress-legislators, FEC 2026)
// into the embedded store, and the ballot query on 200,000 synthetic candidacies against
// PostgreSQL with the same data. Writes its section of BENCHMARKS.md (between
// <!-- bench:graph:start --> and <!-- bench:graph:end -->). Run after `npm run build`;
// memory is measured after global.gc(), so without --expose-gc it re-spawns itself with it.
// Knobs: see graph/config.mjs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The graph service runs with a 64 MB young generation (npm start, the Dockerfile, compose
// and k8s set --max-semi-space-size=64): its answers allocate briefly-lived objects beside a
// large, long-lived index, and fewer scavenges keep them off the tail. Measured the same way.
if (typeof globalThis.gc !== 'function') {
  const args = [
    '--expose-gc',
    '--max-semi-space-size=64',
    ...process.execArgv,
    fileURLToPath(import.meta.url),
    ...process.argv.slice(2),
  ];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const { main } = await import('./graph/main.mjs');
await main();
