#!/usr/bin/env node
import { openGraphStore } from '@civicgraph/graph';
import { runService } from '@civicgraph/kit';
import { readResultsConfig, resultsSettings } from './config.js';
import { startResultsService } from './service.js';

runService({
  name: 'results',
  settings: resultsSettings,
  read: () => readResultsConfig(),
  start: async (config, lifecycle, log) => {
    const store = await openGraphStore(config.store, config.storePath);
    lifecycle.defer('graph store', () => store.close());
    await startResultsService(config, { store, lifecycle, log });
  },
});
