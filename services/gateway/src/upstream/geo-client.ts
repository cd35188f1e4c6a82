import {
  GeoServiceClient,
  type Boundary,
  type DistrictsAtPointRequest,
  type DistrictsAtPointResponse,
  type DistrictsByAddressResponse,
  type Region,
  type RegionDetail,
} from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { clientOptions, insecure } from '@civicgraph/kit';
import { TurnBatcher } from './turn-batcher.js';
import { rpcOf } from './rpc.js';

/** The gateway's view of the geo service; every call carries the caller's principal. */
export interface GeoUpstream {
  districtsAtPoint(principal: Principal, lat: number, lng: number, date: string): Promise<DistrictsAtPointResponse>;
  districtsByAddress(principal: Principal, address: string, date: string): Promise<DistrictsByAddressResponse>;
  getRegion(principal: Principal, slug: string, date: string): Promise<RegionDetail>;
  /** Metadata of many regions in one call (no boundaries); unknown or hidden slugs are left out. */
  getRegions(principal: Principal, slugs: readonly string[], date: string): Promise<Region[]>;
  getBoundary(principal: Principal, slug: string, date: string, simplifyMeters: number): Promise<Boundary>;
  close(): void;
}

/**
 * Most points one DistrictsAtPoints call carries. Under load the point lookups of one
 * event-loop turn leave as one unary call (TurnBatcher): a unary gRPC call costs more
 * than the lookup it carries, so one per request would bound the gateway's throughput
 * (BENCHMARKS.md, geo HTTP, shows both).
 */
const POINTS_PER_CALL = 256;

export function connectGeo(address: string, deadlineMs: number): GeoUpstream {
  const client = new GeoServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'geo');
  const points = new TurnBatcher<DistrictsAtPointRequest, DistrictsAtPointResponse>(async (p, batch) => {
    const { answers, datasetVersion } = await rpc(client.districtsAtPoints, { points: batch }, p);
    return answers.map((a) =>
      a.error === undefined ? { value: { regions: a.regions, datasetVersion } } : { error: a.error },
    );
  }, POINTS_PER_CALL);
  return {
    districtsAtPoint: (p, lat, lng, date) => points.ask(p, { lat, lng, date }),
    districtsByAddress: (p, address, date) => rpc(client.districtsByAddress, { address, date }, p),
    getRegion: (p, slug, date) => rpc(client.getRegion, { slug, date }, p),
    getRegions: async (p, slugs, date) => (await rpc(client.getRegions, { slugs: [...slugs], date }, p)).regions,
    getBoundary: (p, slug, date, simplifyMeters) => rpc(client.getBoundary, { slug, date, simplifyMeters }, p),
    close: () => client.close(),
  };
}
