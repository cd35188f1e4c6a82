import type { Request, Response, Router } from 'express';
import type { RateLimiter, VersionRegistry } from '@civicgraph/kit';
import type { Geocode } from '@civicgraph/protos/civic/geo/v1/geo';
import { principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable } from '../http/respond.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import { regionView } from './districts-by-point.js';
import { renderFor, type Answer, type Endpoint } from './endpoint.js';
import { dateOr, P, readParams } from './schema/params.js';

export const DISTRICTS_BY_ADDRESS: Endpoint = {
  operationId: 'districtsByAddress',
  path: '/v1/districts_by_address',
  tag: 'Geography',
  summary: 'Every district containing an address',
  description:
    'Geocodes the address (a street address with the Census geocoder when configured; `lat,lng`, a ZIP code or `City, ST` with the embedded one), then lists the districts as /v1/districts_by_point does. When the geocode is coarser than a street address the answer is `ambiguous: true` and every district meeting the uncertainty area is listed with its `share` of it. Needs the `geography` entitlement.',
  params: [P.address, P.date('The day asked about'), P.minConfidence, P.singlePageCursor],
  response: 'DistrictsByAddress',
  cache: 'geographic',
  errors: ['invalid_parameter', 'entitlement_required', 'not_found'],
};

function geocodeView(g: Geocode | undefined) {
  if (g === undefined) return null;
  return {
    point: { lat: g.lat, lng: g.lng },
    precision: g.precision,
    source: g.source,
    matched: g.matched,
    uncertainty_radius_meters: g.uncertaintyRadiusMeters ?? null,
  };
}

/**
 * GET /v1/districts_by_address?address=[&date=] — geocodes (coordinates, ZIP, `City, ST`,
 * or a street address with the Census geocoder), then lists the districts. A coarse
 * geocode is `ambiguous: true` and every district carries its `share` of the area.
 */
export function districtsByAddress(
  router: Router,
  geo: GeoUpstream,
  limiter: RateLimiter,
  versions: VersionRegistry,
): void {
  router.get('/v1/districts_by_address', async (req: Request, res: Response) => {
    const params = readParams(DISTRICTS_BY_ADDRESS.params, req.query);
    // The geo service applies the entitlement policy; nothing here is served from a cache.
    const view = await districtsByAddressAnswer(geo)(params, principalOf(res));
    const body = renderFor(res, versions, DISTRICTS_BY_ADDRESS, view);
    await sendCacheable(req, res, limiter, { body, cacheControl: CACHE_GEOGRAPHIC });
  });
}

/** The body of /v1/districts_by_address (also the agent's find_districts by address). */
export function districtsByAddressAnswer(geo: GeoUpstream): Answer {
  return async (params, principal) => {
    const address = params['address'] as string;
    const date = dateOr(params, 'date');
    const answer = await geo.districtsByAddress(principal, address, date);
    return {
      address,
      date,
      geocode: geocodeView(answer.geocode),
      ambiguous: answer.ambiguous,
      data: answer.regions.map(regionView),
      next_cursor: null,
    };
  };
}
