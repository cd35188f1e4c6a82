#!/usr/bin/env node
// `npm run bench:webhooks`: a data change in the graph → a signed delivery at a local
// receiver, through the outbox, NATS JetStream, the dispatcher's durable consumer and the
// deliverer; paced at 200 changes/s, then as fast as it goes, beside the raw JetStream
// publish rate measured in the same run. Needs NATS (NATS_URL, default 127.0.0.1:4222).
// Writes its section of BENCHMARKS.md. Run after `npm run build`.
const { main } = await import('./webhooks/main.mjs');
await main();
