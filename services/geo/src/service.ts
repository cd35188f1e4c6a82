import { GeoServiceService, type GeoServiceServer } from '@civicgraph/protos/civic/geo/v1/geo';
import { startGrpcServer, unary, type EventBus, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { GeoConfig } from './config.js';
import { publishBoundaryChanges } from './events.js';
import { GeoState } from './geo-state.js';
import { districtsAtPoint } from './handlers/districts-at-point.js';
import type { BoundaryDiff } from './boundaries.js';

export interface GeoDeps {
  bus: EventBus;
  lifecycle: Lifecycle;
  log: Logger;
}

/** A running geo service. */
export interface GeoService {
  readonly address: string;
  readonly port: number;
  /** Re-reads every boundary source, swaps the index and publishes what changed. */
  reload(): Promise<BoundaryDiff>;
}

export async function startGeoService(config: GeoConfig, deps: GeoDeps): Promise<GeoService> {
  const { bus, lifecycle, log } = deps;
  const state = new GeoState(config);
  const implementation: GeoServiceServer = {
    districtsAtPoint: unary(log, 'DistrictsAtPoint', districtsAtPoint(state)),
  };
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [{ name: 'civic.geo.v1.GeoService', definition: GeoServiceService, implementation }],
    log,
  });
  lifecycle.defer('geo grpc server', () => server.stop());
  let first = true;
  const reload = async (): Promise<BoundaryDiff> => {
    const started = performance.now();
    const { diff, set } = state.load();
    const events = await publishBoundaryChanges(bus, config.env, diff, set.version, first);
    first = false;
    log.info({ regions: set.regions.length, skipped: set.skipped.length, version: set.version, created: diff.created.length,
      updated: diff.updated.length, deleted: diff.deleted.length, events, ms: Math.round(performance.now() - started) }, 'boundaries loaded');
    return diff;
  };
  await reload();
  server.markServing();
  return { address: server.address, port: server.port, reload };
}
