import {
  GeoServiceClient,
  type Boundary,
  type DistrictsAtPointResponse,
  type DistrictsByAddressResponse,
  type Region,
  type RegionDetail,
} from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { clientOptions, insecure } from '@civicgraph/kit';
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

export function connectGeo(address: string, deadlineMs: number): GeoUpstream {
  const client = new GeoServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'geo');
  return {
    districtsAtPoint: (p, lat, lng, date) => rpc(client.districtsAtPoint, { lat, lng, date }, p),
    districtsByAddress: (p, address, date) => rpc(client.districtsByAddress, { address, date }, p),
    getRegion: (p, slug, date) => rpc(client.getRegion, { slug, date }, p),
    getRegions: async (p, slugs, date) => (await rpc(client.getRegions, { slugs: [...slugs], date }, p)).regions,
    getBoundary: (p, slug, date, simplifyMeters) => rpc(client.getBoundary, { slug, date, simplifyMeters }, p),
    close: () => client.close(),
  };
}
