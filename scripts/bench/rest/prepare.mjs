// Run as a child of main.mjs before the stack starts, so the benchmark's server process
// holds only what the services hold (not the generated documents or the point-sampling
// index): loads the demo graph into `<dataDir>/graph` exactly as `civicgraph up` does
// (services/cli's loadDemoIfEmpty: generateDemo over demoRegions of a boundary store holding
// the files geo serves, us-atlas included, as of today), waits until the outbox relay has published its
// events, stops, and draws the seeded point sets. Prints a JSON summary on stdout.
import { join } from 'node:path';
import { importBoundaries, LmdbBoundaryStore, parseBoundaryFile } from '@civicgraph/geo';
import { defaultGraphConfig, startGraphService } from '@civicgraph/graph';
import { createLogger, Lifecycle, MemoryEventBus } from '@civicgraph/kit';
import { loadDemoIfEmpty } from '../../../services/cli/dist/commands/demo-data.js';
import { ballotQueries, statePicker } from './points.mjs';

const o = JSON.parse(process.argv[2]);

async function loadDemo() {
  const log = createLogger('bench', 'silent');
  const lifecycle = new Lifecycle(log);
  const bus = new MemoryEventBus();
  lifecycle.defer('bus', () => bus.close());
  try {
    const graph = await startGraphService({ ...defaultGraphConfig(o.dataDir), port: 0 }, { bus, lifecycle, log });
    const started = performance.now();
    // The districts the demo is invented over: the files geo serves, undated, in a store of their own.
    const regionsStore = join(o.dataDir, 'demo-regions');
    const store = LmdbBoundaryStore.open(regionsStore);
    try {
      for (const spec of o.geoFiles) {
        const file = parseBoundaryFile(spec);
        await importBoundaries(store, {
          path: file.path,
          level: file.level,
          ...(file.state === undefined ? {} : { state: file.state }),
        });
      }
    } finally {
      await store.close();
    }
    await loadDemoIfEmpty(graph, regionsStore, log);
    const ms = performance.now() - started;
    // The stack's graph service must not start by relaying the whole load to the gateway.
    const deadline = Date.now() + 120_000;
    while ((await graph.store.stats()).pendingEvents > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const stats = await graph.store.stats();
    return { ms, nodes: stats.nodes, edges: stats.edges, pendingEvents: stats.pendingEvents };
  } finally {
    await lifecycle.stop('demo loaded');
  }
}

const demo = await loadDemo();
const picker = statePicker(o.states);
const main = ballotQueries(picker, o.points, 1);
const used = new Set(main);
const cpu = Array.from({ length: o.rounds }, (_, k) => {
  const set = ballotQueries(picker, o.cpuPoints, 101 + k, used);
  for (const q of set) used.add(q);
  return set;
});
const warm = ballotQueries(picker, Math.min(200, o.cpuPoints), 100, used);
for (const q of warm) used.add(q);
// coldSets sets of points never asked before (one per paced round and server, and per profiled round): every request a response-cache miss.
const cold = Array.from({ length: o.coldSets ?? o.rounds }, (_, k) => {
  const set = ballotQueries(picker, o.coldPoints, 201 + k, used);
  for (const q of set) used.add(q);
  return set;
});
process.stdout.write(JSON.stringify({ demo, queries: { main, cpu, warm, cold } }));
