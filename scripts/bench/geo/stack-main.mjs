// The whole stack in one process of its own (startStack, as `civicgraph up` runs it), for
// the benchmarks: started with the probe by server-child.mjs, it reports {ready: {url, key}}
// over IPC and stops cleanly on SIGTERM. argv[2]: JSON of {dataDir?}, a prepared data folder.
import { config } from './config.mjs';
import { startStack } from './http.mjs';

const stack = await startStack(config.shared, JSON.parse(process.argv[2] ?? '{}'));
process.once('SIGTERM', () => void stack.stop().then(() => process.exit(0)));
process.send?.({ ready: { url: stack.url, key: stack.key, neighbourKey: stack.neighbourKey } });
