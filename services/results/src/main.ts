#!/usr/bin/env node
import { openBus, runService } from '@civicgraph/kit';
import { readResultsConfig, resultsSettings } from './config.js';
import { startResultsService } from './service.js';

runService({
  name: 'results',
  settings: resultsSettings,
  read: () => readResultsConfig(),
  start: async (config, lifecycle, log) => {
    const bus = await openBus(config.natsUrl, 'results', log);
    lifecycle.defer('results event bus', () => bus.close());
    await startResultsService(config, { bus, lifecycle, log });
  },
});
