#!/usr/bin/env node
// `npm run bench:graphql`: the spec's ballotAtPoint selection over POST /graphql on the demo
// data (saturated beside the REST ballot and a bare express handler, paced at the issue's
// 300 req/s), and the server CPU each kind of refused document costs. Writes its section of
// BENCHMARKS.md (between <!-- bench:graphql:start --> and <!-- bench:graphql:end -->).
//
// Run after `npm run build`. The stack runs in a process of its own, as `civicgraph up`
// runs it; node flags given to this script are passed to it. Knobs: see graphql/config.mjs.
const { main } = await import('./graphql/main.mjs');
await main();
