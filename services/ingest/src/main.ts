#!/usr/bin/env node
import { runService } from '@civicgraph/kit';
import { ingestSettings, readIngestConfig } from './config.js';
import { startIngestService } from './service.js';

runService({
  name: 'ingest',
  settings: ingestSettings,
  read: () => readIngestConfig(),
  start: (config, lifecycle, log) => startIngestService(config, { lifecycle, log }).then(() => undefined),
});
