#!/usr/bin/env node
import { openBus, runProcess } from '@civicgraph/kit';
import { readAuthConfig } from './config.js';
import { startAuthService } from './service.js';

runProcess('auth', () => readAuthConfig().logLevel, async (lifecycle, log) => {
  const config = readAuthConfig();
  const bus = await openBus(config.natsUrl, 'auth', log);
  lifecycle.defer('auth event bus', () => bus.close());
  await startAuthService(config, { bus, lifecycle, log });
});
