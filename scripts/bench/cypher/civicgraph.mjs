// The civicgraph side: the synthetic graph (bench:graph's documents, with the party and office
// nodes and the edges of edges.mjs) loaded into an LmdbGraphStore by bench:graph's loader,
// then each query answered by a process of its own that reopens the store from disk.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedded } from '../graph/embedded.mjs';

const CHILD = fileURLToPath(new URL('./civicgraph-child.mjs', import.meta.url));

/** Loads the store; returns its path, load and reopen figures, and `cleanup` (removes it). */
export async function loadCivicgraph(nodes, edges) {
  const loaded = await loadEmbedded(nodes, edges);
  // The queries run in their own processes: this one lets go of its copy of the index.
  await loaded.store.close();
  return {
    path: loaded.path,
    loadMs: loaded.loadMs,
    openMs: loaded.openMs,
    bytes: loaded.bytes,
    stats: loaded.stats,
    cleanup: loaded.cleanup,
  };
}

/** Runs one query in a fresh process (as the graph service is deployed: --max-semi-space-size=64). */
export function runCivicgraph(path, query, cfg) {
  const child = fork(CHILD, [], {
    execArgv: ['--expose-gc', '--max-semi-space-size=64'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const profileFile = join(cfg.profileDir, `civic-bench-cypher-${query.id}.cpuprofile`);
  return new Promise((resolve, reject) => {
    let result;
    child.once('message', (m) => (result = m.result));
    child.once('exit', (code) =>
      result === undefined
        ? reject(new Error(`civicgraph query ${query.id} exited ${code} without an answer`))
        : resolve({ ...result, profileFile }),
    );
    child.send({ path, query, warmup: cfg.warmup, runs: cfg.runs, profileFile });
  });
}
