// The bare Node HTTP peer in a process of its own (startRawNode), for the benchmarks: started
// with the probe by server-child.mjs, it reports {ready: {url, bytes}} over IPC.
import { startRawNode } from './http.mjs';

const raw = await startRawNode();
process.once('SIGTERM', () => void raw.stop().then(() => process.exit(0)));
process.send?.({ ready: { url: raw.url, bytes: raw.bytes } });
