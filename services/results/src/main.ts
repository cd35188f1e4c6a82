#!/usr/bin/env node
import { openGraphStore } from '@civicgraph/graph';
import { runProcess } from '@civicgraph/kit';
import { readResultsConfig } from './config.js';
import { startResultsService } from './service.js';

runProcess('results', () => readResultsConfig().logLevel, async (lifecycle, log) => {
  const config = readResultsConfig();
  const store = await openGraphStore(config.store, config.storePath);
  lifecycle.defer('graph store', () => store.close());
  await startResultsService(config, { store, lifecycle, log });
});
