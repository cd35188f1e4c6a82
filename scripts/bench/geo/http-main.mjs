// The HTTP part of bench:geo in a process of its own, spawned by main.mjs: the servers it
// starts here must not share a heap (and its garbage-collection pauses) with the engine
// workloads the main process holds. Progress goes to stderr, the result as JSON to stdout.
import { config } from './config.mjs';
import { benchHttp } from './http.mjs';

const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:geo http ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);
process.stdout.write(JSON.stringify(await benchHttp(config, progress)));
