#!/usr/bin/env node
import { openBus, runService } from '@civicgraph/kit';
import { graphSettings, readGraphConfig } from './config.js';
import { startGraphService } from './graph-service.js';

runService({
  name: 'graph',
  settings: graphSettings,
  read: () => readGraphConfig(),
  start: async (config, lifecycle, log) => {
    const bus = await openBus(config.natsUrl, 'civicgraph-graph', log);
    lifecycle.defer('event bus', () => bus.close());
    await startGraphService(config, { bus, lifecycle, log });
  },
});
