// The bare express peer in a process of its own (startBare), for the benchmarks: started with
// the probe by server-child.mjs, it reports {ready: {url, bytes}} over IPC.
import { startBare } from './http.mjs';

const bare = await startBare();
process.once('SIGTERM', () => void bare.stop().then(() => process.exit(0)));
process.send?.({ ready: { url: bare.url, bytes: bare.bytes } });
