#!/usr/bin/env node
import { openBus, runService } from '@civicgraph/kit';
import { readWebhooksConfig, webhooksSettings } from './config.js';
import { startWebhooksService } from './service.js';

runService({
  name: 'webhooks',
  settings: webhooksSettings,
  read: () => readWebhooksConfig(),
  start: async (config, lifecycle, log) => {
    const bus = await openBus(config.natsUrl, 'webhooks', log);
    lifecycle.defer('webhooks event bus', () => bus.close());
    await startWebhooksService(config, { bus, lifecycle, log });
  },
});
