#!/usr/bin/env node
import { runProcess } from '@civicgraph/kit';
import { readIngestConfig } from './config.js';
import { startIngestService } from './service.js';

runProcess('ingest', () => readIngestConfig().logLevel, async (lifecycle, log) => {
  await startIngestService(readIngestConfig(), { lifecycle, log });
});
