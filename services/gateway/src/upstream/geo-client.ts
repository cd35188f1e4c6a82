import {
  GeoServiceClient,
  type Boundary,
  type DistrictsAtPointResponse,
  type DistrictsAtPointsRequest,
  type DistrictsAtPointsResponse,
  type DistrictsByAddressResponse,
  type Region,
  type RegionDetail,
} from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { CLIENT_OPTIONS, insecure, MuxClient } from '@civicgraph/kit';
import { principalRpc } from './principal-rpc.js';
import { PointBatcher } from './point-batcher.js';

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
 * A geo client. Point lookups are coalesced into DistrictsAtPoints calls of at most
 * `batchMax` points (see PointBatcher), carried on one long-lived StreamDistrictsAtPoints
 * stream (see MuxClient): the path every uncached point request takes pays no per-call
 * gRPC setup.
 */
export function connectGeo(address: string, deadlineMs: number, batchMax: number): GeoUpstream {
  const client = new GeoServiceClient(address, insecure(), CLIENT_OPTIONS);
  const rpc = principalRpc(client, 'geo', deadlineMs);
  const stream = new MuxClient<DistrictsAtPointsRequest, DistrictsAtPointsResponse>(() => client.streamDistrictsAtPoints(), 'geo', deadlineMs);
  const points = new PointBatcher((p, batch) => stream.call(p, { points: batch }), batchMax);
  return {
    districtsAtPoint: (p, lat, lng, date) => points.lookup(p, { lat, lng, date }),
    districtsByAddress: (p, address, date) => rpc(client.districtsByAddress, p, { address, date }),
    getRegion: (p, slug, date) => rpc(client.getRegion, p, { slug, date }),
    getRegions: async (p, slugs, date) => (await rpc(client.getRegions, p, { slugs: [...slugs], date })).regions,
    getBoundary: (p, slug, date, simplifyMeters) => rpc(client.getBoundary, p, { slug, date, simplifyMeters }),
    close: () => {
      stream.close();
      client.close();
    },
  };
}
