#!/usr/bin/env node
// `npm run bench:export`: a full bulk export (every table, NDJSON.gz + CSV + Parquet, and CSV
// alone) of bench:graph's 200,000-candidacy synthetic graph by civicgraph's export engine, in a
// worker process of its own reading the LMDB store's snapshot, against PostgreSQL `COPY … TO`
// CSV of the same rows, in the same run; the worker's peak memory measured. Writes its section
// of BENCHMARKS.md (between <!-- bench:export:start --> and <!-- bench:export:end -->). Run
// after `npm run build`. Knobs: see export/config.mjs.
const { main } = await import('./export/main.mjs');
await main();
