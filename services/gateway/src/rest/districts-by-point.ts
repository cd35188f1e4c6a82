import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, restLevel } from '@civicgraph/kit';
import type { Router } from 'express';
import type { GeoUpstream } from '../upstream/geo-client.js';
import { mountCached, type Answer, type Endpoint, type RouteDeps } from './endpoint.js';
import { dateOr, P } from './schema/params.js';

/** `DISTRICT_ROLE_SERVING` → `serving`. */
export function roleWord(role: DistrictRole): string {
  return (DistrictRole[role] ?? 'DISTRICT_ROLE_UNSPECIFIED').slice('DISTRICT_ROLE_'.length).toLowerCase();
}

/** Where an outline came from and how exact it is (Region and RegionVersion alike). */
export function boundarySource(r: { source: string; precision: string; scaleDenominator: number }) {
  return {
    source: r.source === '' ? null : r.source,
    precision: r.precision,
    scale_denominator: r.scaleDenominator === 0 ? null : r.scaleDenominator,
  };
}

/** REST shape of a region (snake_case; nullable where the source may lack a value). */
export function regionView(r: Region) {
  return {
    slug: r.slug,
    name: r.name,
    level: restLevel(r.level),
    fips: r.fips === '' ? null : r.fips,
    population: r.population === undefined ? null : Number(r.population),
    ocd_id: r.ocdId === '' ? null : r.ocdId,
    roles: r.roles.map(roleWord),
    valid_from: r.validFrom === '' ? null : r.validFrom,
    valid_to: r.validTo === '' ? null : r.validTo,
    ...boundarySource(r),
    ...(r.share === undefined ? {} : { share: Math.round(r.share * 1000) / 1000 }),
  };
}

export const DISTRICTS_BY_POINT: Endpoint = {
  operationId: 'districtsByPoint',
  path: '/v1/districts_by_point',
  tag: 'Geography',
  summary: 'Every district containing a point',
  description:
    'Every region whose boundary, in force on the date, contains the point: exact polygon tests against real boundaries, not postal-code approximations. During redistricting a district is marked `serving` (its winners hold office now) and/or `electing` (elections on the date use it). Needs the `geography` entitlement. `min_confidence` is accepted for uniformity; boundaries carry no confidence score.',
  params: [P.lat, P.lng, P.date('The day asked about'), P.minConfidence, P.singlePageCursor],
  response: 'DistrictsAtPoint',
  cache: 'geographic',
  errors: ['invalid_parameter', 'entitlement_required'],
};

/**
 * GET /v1/districts_by_point?lat=&lng=[&date=] — every district containing the point on the
 * date (default today), each marked serving and/or electing.
 */
export function districtsByPoint(router: Router, geo: GeoUpstream, deps: RouteDeps): void {
  mountCached(router, DISTRICTS_BY_POINT, deps, districtsByPointAnswer(geo));
}

/** The body of /v1/districts_by_point (also the agent's find_districts by point). */
export function districtsByPointAnswer(geo: GeoUpstream): Answer {
  return async (params, principal) => {
    const lat = assertCoordinate('lat', params['lat'] as number);
    const lng = assertCoordinate('lng', params['lng'] as number);
    const date = dateOr(params, 'date');
    const { regions } = await geo.districtsAtPoint(principal, lat, lng, date);
    return { point: { lat, lng }, date, data: regions.map(regionView), next_cursor: null };
  };
}
