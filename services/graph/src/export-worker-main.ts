#!/usr/bin/env node
import { runService } from '@civicgraph/kit';
import { graphSettings, readGraphConfig } from './config.js';
import { exportsOptions, startExports } from './export/start-exports.js';
import { ArangoGraphStore } from './store/arango/arango-graph-store.js';
import { LmdbSnapshots } from './store/snapshot/lmdb-snapshot.js';

/**
 * The export worker alone, in a process of its own (the graph service then runs with
 * GRAPH_EXPORT_WORKER=off): the same job store, storage and schedule, with the graph read
 * from its store's snapshots — on the embedded store without loading the graph into memory,
 * so the process holds only the rows in flight (BENCHMARKS.md, bulk export). It reads the
 * graph service's settings. Jobs reach it on the JetStream work queue with NATS, else by
 * polling the embedded job store (every 5 s; it must then share the graph's data folder).
 */
runService({
  name: 'export-worker',
  settings: graphSettings,
  read: () => readGraphConfig(),
  start: async (config, lifecycle, log) => {
    let snapshot: () => ReturnType<LmdbSnapshots['snapshot']>;
    if (config.store.kind === 'arangodb') {
      const arango = await ArangoGraphStore.connect(config.store);
      lifecycle.defer('graph store', () => arango.close());
      snapshot = () => arango.snapshot();
    } else {
      const snapshots = LmdbSnapshots.open(config.storePath);
      lifecycle.defer('graph store', () => snapshots.close());
      snapshot = () => snapshots.snapshot();
    }
    await startExports(exportsOptions(config, true, snapshot), lifecycle, log);
  },
});
