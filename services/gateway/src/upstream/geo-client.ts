import { GeoServiceClient, type Boundary, type DistrictsAtPointResponse, type DistrictsByAddressResponse, type RegionDetail } from '@civicgraph/protos/civic/geo/v1/geo';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { call, CLIENT_OPTIONS, fromServiceError, insecure, principalMetadata } from '@civicgraph/kit';

/** The gateway's view of the geo service; every call carries the caller's principal. */
export interface GeoUpstream {
  districtsAtPoint(principal: Principal, lat: number, lng: number, date: string): Promise<DistrictsAtPointResponse>;
  districtsByAddress(principal: Principal, address: string, date: string): Promise<DistrictsByAddressResponse>;
  getRegion(principal: Principal, slug: string, date: string): Promise<RegionDetail>;
  getBoundary(principal: Principal, slug: string, date: string, simplifyMeters: number): Promise<Boundary>;
  close(): void;
}

export function connectGeo(address: string, deadlineMs: number): GeoUpstream {
  const client = new GeoServiceClient(address, insecure(), CLIENT_OPTIONS);
  return {
    async districtsAtPoint(principal, lat, lng, date) {
      try {
        return await call(client.districtsAtPoint.bind(client), { lat, lng, date }, principalMetadata(principal), deadlineMs);
      } catch (err) {
        throw fromServiceError(err, 'geo');
      }
    },
    async districtsByAddress(principal, address, date) {
      try {
        return await call(client.districtsByAddress.bind(client), { address, date }, principalMetadata(principal), deadlineMs);
      } catch (err) {
        throw fromServiceError(err, 'geo');
      }
    },
    async getRegion(principal, slug, date) {
      try {
        return await call(client.getRegion.bind(client), { slug, date }, principalMetadata(principal), deadlineMs);
      } catch (err) {
        throw fromServiceError(err, 'geo');
      }
    },
    async getBoundary(principal, slug, date, simplifyMeters) {
      try {
        return await call(client.getBoundary.bind(client), { slug, date, simplifyMeters }, principalMetadata(principal), deadlineMs);
      } catch (err) {
        throw fromServiceError(err, 'geo');
      }
    },
    close: () => client.close(),
  };
}
