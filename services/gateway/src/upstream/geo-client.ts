import {
  GeoServiceClient,
  type Boundary,
  type DistrictsAtPointResponse,
  type DistrictsByAddressResponse,
  type RegionDetail,
} from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { CallOptions, Metadata, ServiceError } from '@grpc/grpc-js';
import { call, CLIENT_OPTIONS, fromServiceError, insecure, principalMetadata } from '@civicgraph/kit';
import { PointBatcher } from './point-batcher.js';

/** The gateway's view of the geo service; every call carries the caller's principal. */
export interface GeoUpstream {
  districtsAtPoint(principal: Principal, lat: number, lng: number, date: string): Promise<DistrictsAtPointResponse>;
  districtsByAddress(principal: Principal, address: string, date: string): Promise<DistrictsByAddressResponse>;
  getRegion(principal: Principal, slug: string, date: string): Promise<RegionDetail>;
  getBoundary(principal: Principal, slug: string, date: string, simplifyMeters: number): Promise<Boundary>;
  close(): void;
}

type Unary<Req, Res> = (req: Req, md: Metadata, opts: Partial<CallOptions>, cb: (err: ServiceError | null, res: Res) => void) => unknown;

/**
 * A geo client; point lookups are coalesced into DistrictsAtPoints calls of at most
 * `batchMax` points (see PointBatcher).
 */
export function connectGeo(address: string, deadlineMs: number, batchMax: number): GeoUpstream {
  const client = new GeoServiceClient(address, insecure(), CLIENT_OPTIONS);
  /** One call with the principal attached; failures come back as the typed errors geo threw. */
  async function rpc<Req, Res>(method: Unary<Req, Res>, principal: Principal, req: Req): Promise<Res> {
    try {
      return await call(method.bind(client), req, principalMetadata(principal), deadlineMs);
    } catch (err) {
      throw fromServiceError(err, 'geo');
    }
  }
  const points = new PointBatcher((p, batch) => rpc(client.districtsAtPoints, p, { points: batch }), batchMax);
  return {
    districtsAtPoint: (p, lat, lng, date) => points.lookup(p, { lat, lng, date }),
    districtsByAddress: (p, address, date) => rpc(client.districtsByAddress, p, { address, date }),
    getRegion: (p, slug, date) => rpc(client.getRegion, p, { slug, date }),
    getBoundary: (p, slug, date, simplifyMeters) => rpc(client.getBoundary, p, { slug, date, simplifyMeters }),
    close: () => client.close(),
  };
}
