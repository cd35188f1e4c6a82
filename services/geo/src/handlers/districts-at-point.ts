import type { ServerUnaryCall } from '@grpc/grpc-js';
import { DistrictRole, type DistrictsAtPointRequest, type DistrictsAtPointResponse, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, assertGeography, InvalidParameterError, isIsoDate, principalOf, todayUtc, visibleByState } from '@civicgraph/kit';
import type { RegionRecord } from '../domain/region.js';
import { onDate, type DatedRegion } from '../domain/validity.js';
import type { GeoState } from '../geo-state.js';

const ROLES = { serving: DistrictRole.DISTRICT_ROLE_SERVING, electing: DistrictRole.DISTRICT_ROLE_ELECTING } as const;

/** The date a request asks about: `YYYY-MM-DD`, or today (UTC) when empty. */
export function requestDate(date: string, now = new Date()): string {
  if (date === '') return todayUtc(now);
  if (!isIsoDate(date)) throw new InvalidParameterError('date', `date must be a calendar date written YYYY-MM-DD, got "${date}".`);
  return date;
}

export function toRegion({ region: r, roles }: DatedRegion): Region {
  return {
    roles: roles.map((role) => ROLES[role]),
    validFrom: r.validity?.from ?? '',
    validTo: r.validity?.to ?? '',
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
    const date = requestDate(request.date);
    const { index, version } = state.current();
    const inForce = onDate(visibleByState(principal, index.lookup(lat, lng)), date);
    const regions = inForce.map(toRegion);
    return { regions, datasetVersion: version };
  };
}
