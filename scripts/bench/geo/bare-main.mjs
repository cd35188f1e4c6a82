// The bare express peer in a process of its own (startBare), for the benchmarks: started with
// the probe by server-child.mjs, it reports {ready: {url, bytes}} over IPC. Argument `born`:
// served by the gateway's expressServer rather than a stock http.createServer.
import { startBare } from './http.mjs';

const bare = await startBare({ born: process.argv[2] === 'born' });
process.once('SIGTERM', () => void bare.stop().then(() => process.exit(0)));
process.send?.({ ready: { url: bare.url, bytes: bare.bytes } });
