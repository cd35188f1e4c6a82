import { GeoServiceService, type GeoServiceServer } from '@civicgraph/protos/civic/geo/v1/geo';
import {
  IMPORT_MESSAGE_BYTES,
  startGrpcServer,
  unary,
  type EventBus,
  type Lifecycle,
  type Logger,
} from '@civicgraph/kit';
import type { GeoConfig } from './config.js';
import { publishBoundaryChanges } from './events.js';
import { GeoState } from './geo-state.js';
import { districtsAtPoint, districtsAtPoints } from './handlers/districts-at-point.js';
import { districtsByAddress } from './handlers/districts-by-address.js';
import { importBoundariesHandler } from './handlers/import-boundaries.js';
import { getBoundary, getRegion, getRegions } from './handlers/regions.js';
import { createGeocoder, type Geocoder } from './geocode/index.js';
import type { BoundaryDiff } from './boundaries.js';
import { Reloader } from './reloader.js';
import { LmdbBoundaryStore } from './store/lmdb-boundary-store.js';

export interface GeoDeps {
  bus: EventBus;
  lifecycle: Lifecycle;
  log: Logger;
  /** The Geocoder port's adapter; default: the one `config.geocoder` selects. */
  geocoder?: Geocoder;
}

/** A running geo service. */
export interface GeoService {
  readonly address: string;
  readonly port: number;
  /**
   * Re-reads every boundary source, swaps the index and publishes what changed. A failed
   * reload leaves the previous boundaries serving. Imports into the store are picked up
   * by themselves within `storePollMs` (another process's), or before ImportBoundaries answers.
   */
  reload(): Promise<BoundaryDiff>;
}

export async function startGeoService(config: GeoConfig, deps: GeoDeps): Promise<GeoService> {
  const { bus, lifecycle, log } = deps;
  const store = LmdbBoundaryStore.open(config.storePath);
  lifecycle.defer('geo boundary store', () => store.close());
  const state = new GeoState(config, store);
  const geocoder = deps.geocoder ?? createGeocoder(config.geocoder);
  let first = true;
  const reload = async (): Promise<BoundaryDiff> => {
    const started = performance.now();
    const { diff, set, regions, index, snapshotError } = state.load();
    const events = await publishBoundaryChanges(bus, config.env, diff, set.version, first);
    first = false;
    if (snapshotError !== undefined)
      log.warn(
        { err: snapshotError, dir: config.snapshotDir },
        'index snapshot not written; the next start builds the index again',
      );
    log.info(
      {
        regions,
        index,
        leftOut: set.leftOut.length,
        version: set.version,
        created: diff.created.length,
        updated: diff.updated.length,
        deleted: diff.deleted.length,
        events,
        ms: Math.round(performance.now() - started),
      },
      'boundaries loaded',
    );
    return diff;
  };
  const reloader = new Reloader(reload, store, log);
  const implementation: GeoServiceServer = {
    districtsAtPoint: unary(log, 'DistrictsAtPoint', districtsAtPoint(state)),
    districtsAtPoints: unary(log, 'DistrictsAtPoints', districtsAtPoints(state)),
    districtsByAddress: unary(log, 'DistrictsByAddress', districtsByAddress(state, geocoder)),
    getRegion: unary(log, 'GetRegion', getRegion(state)),
    getRegions: unary(log, 'GetRegions', getRegions(state)),
    getBoundary: unary(log, 'GetBoundary', getBoundary(state)),
    importBoundaries: unary(log, 'ImportBoundaries', importBoundariesHandler(store, reloader, log)),
  };
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [{ name: 'civic.geo.v1.GeoService', definition: GeoServiceService, implementation }],
    log,
    // ImportBoundaries carries a whole map in one message.
    maxReceiveMessageBytes: IMPORT_MESSAGE_BYTES,
  });
  lifecycle.defer('geo grpc server', () => server.stop());
  await reloader.request();
  reloader.watch(config.storePollMs);
  lifecycle.defer('geo reloader', () => reloader.stop());
  geocoder.prepare();
  server.markServing();
  return { address: server.address, port: server.port, reload: () => reloader.request() };
}
