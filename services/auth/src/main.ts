#!/usr/bin/env node
import { runProcess } from '@civicgraph/kit';
import { readAuthConfig } from './config.js';
import { startAuthService } from './service.js';

runProcess('auth', () => readAuthConfig().logLevel, async (lifecycle, log) => {
  await startAuthService(readAuthConfig(), { lifecycle, log });
});
