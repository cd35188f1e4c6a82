#!/usr/bin/env node
import { openBus, runProcess } from '@civicgraph/kit';
import { readGraphConfig } from './config.js';
import { startGraphService } from './graph-service.js';

runProcess('graph', () => readGraphConfig().logLevel, async (lifecycle, log) => {
  const config = readGraphConfig();
  const bus = await openBus(config.natsUrl, 'civicgraph-graph', log);
  lifecycle.defer('event bus', () => bus.close());
  await startGraphService(config, { bus, lifecycle, log });
});
