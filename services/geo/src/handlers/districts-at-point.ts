import type { ServerUnaryCall } from '@grpc/grpc-js';
import type { DistrictsAtPointRequest, DistrictsAtPointResponse, Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, assertGeography, principalOf, visibleByState } from '@civicgraph/kit';
import type { RegionRecord } from '../domain/region.js';
import type { GeoState } from '../geo-state.js';

export function toRegion(r: RegionRecord): Region {
  return {
    slug: r.slug,
    name: r.name,
    level: r.level,
    fips: r.fips,
    ocdId: r.ocdId,
    state: r.state,
    ...(r.population === undefined ? {} : { population: String(r.population) }),
  };
}

/** Decodes, checks the caller's entitlements through the policy, looks up, encodes. */
export function districtsAtPoint(state: GeoState) {
  return (request: DistrictsAtPointRequest, call: ServerUnaryCall<DistrictsAtPointRequest, DistrictsAtPointResponse>) => {
    const principal = principalOf(call);
    assertGeography(principal);
    const lat = assertCoordinate('lat', request.lat);
    const lng = assertCoordinate('lng', request.lng);
    const { index, version } = state.current();
    const regions = visibleByState(principal, index.lookup(lat, lng)).map(toRegion);
    return { regions, datasetVersion: version };
  };
}
