// The civicgraph side: bench:cypher's graph (bench:graph's documents with their party and
// office nodes and edges) loaded into an LmdbGraphStore, then each export run by a fresh
// worker process (worker-child.mjs) reading the store from disk.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEmbedded } from '../graph/embedded.mjs';

const CHILD = fileURLToPath(new URL('./worker-child.mjs', import.meta.url));

export async function loadStore(nodes, edges) {
  const loaded = await loadEmbedded(nodes, edges);
  // The worker reads the store in its own process: this one lets go of its copy.
  await loaded.store.close();
  return loaded;
}

/** One export by a fresh worker process (`civicgraph export-worker`: Node's default flags). */
export function runWorker(path, formats) {
  const child = fork(CHILD, [], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result;
    child.once('message', (m) => (result = m.result));
    child.once('exit', (code) =>
      result === undefined ? reject(new Error(`export worker exited ${code} without an answer`)) : resolve(result),
    );
    child.send({ path, formats });
  });
}
