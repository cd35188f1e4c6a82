#!/usr/bin/env node
import { openBus, runService } from '@civicgraph/kit';
import { gatewaySettings, readGatewayConfig } from './config.js';
import { startGateway } from './gateway.js';

runService({
  name: 'gateway',
  settings: gatewaySettings,
  read: () => readGatewayConfig(),
  start: async (config, lifecycle, log) => {
    const bus = await openBus(config.natsUrl, 'civicgraph-gateway', log);
    lifecycle.defer('event bus', () => bus.close());
    await startGateway(config, { bus, lifecycle, log });
  },
});
