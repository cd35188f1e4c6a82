#!/usr/bin/env node
import { openBus, runService } from '@civicgraph/kit';
import { authSettings, readAuthConfig } from './config.js';
import { startAuthService } from './service.js';

runService({
  name: 'auth',
  settings: authSettings,
  read: () => readAuthConfig(),
  start: async (config, lifecycle, log) => {
    const bus = await openBus(config.natsUrl, 'auth', log);
    lifecycle.defer('auth event bus', () => bus.close());
    await startAuthService(config, { bus, lifecycle, log });
  },
});
