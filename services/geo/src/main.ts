#!/usr/bin/env node
import { openBus, runService } from '@civicgraph/kit';
import { geoSettings, readGeoConfig } from './config.js';
import { startGeoService } from './service.js';

runService({
  name: 'geo',
  settings: geoSettings,
  read: () => readGeoConfig(),
  start: async (config, lifecycle, log) => {
    const bus = await openBus(config.natsUrl, 'civicgraph-geo', log);
    lifecycle.defer('event bus', () => bus.close());
    const geo = await startGeoService(config, { bus, lifecycle, log });
    // SIGHUP re-reads every boundary source: operators swap files, then signal.
    process.on('SIGHUP', () => void geo.reload().catch((err: unknown) => log.error({ err }, 'reload failed')));
  },
});
