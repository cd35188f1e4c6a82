#!/usr/bin/env node
import { openBus, runProcess } from '@civicgraph/kit';
import { readResultsConfig } from './config.js';
import { startResultsService } from './service.js';

runProcess('results', () => readResultsConfig().logLevel, async (lifecycle, log) => {
  const config = readResultsConfig();
  const bus = await openBus(config.natsUrl, 'results', log);
  lifecycle.defer('results event bus', () => bus.close());
  await startResultsService(config, { bus, lifecycle, log });
});
