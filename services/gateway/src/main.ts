#!/usr/bin/env node
import { openBus, runProcess } from '@civicgraph/kit';
import { readGatewayConfig } from './config.js';
import { startGateway } from './gateway.js';

runProcess('gateway', () => readGatewayConfig().logLevel, async (lifecycle, log) => {
  const config = readGatewayConfig();
  const bus = await openBus(config.natsUrl, 'civicgraph-gateway', log);
  lifecycle.defer('event bus', () => bus.close());
  await startGateway(config, { bus, lifecycle, log });
});
