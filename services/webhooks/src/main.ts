#!/usr/bin/env node
import { openBus, runProcess } from '@civicgraph/kit';
import { readWebhooksConfig } from './config.js';
import { startWebhooksService } from './service.js';

runProcess('webhooks', () => readWebhooksConfig().logLevel, async (lifecycle, log) => {
  const config = readWebhooksConfig();
  const bus = await openBus(config.natsUrl, 'webhooks', log);
  lifecycle.defer('webhooks event bus', () => bus.close());
  await startWebhooksService(config, { bus, lifecycle, log });
});
