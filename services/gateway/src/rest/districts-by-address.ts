import { Router, type Request, type Response } from 'express';
import { InvalidParameterError, type RateLimiter } from '@civicgraph/kit';
import type { Geocode } from '@civicgraph/protos/civic/geo/v1/geo';
import { principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable } from '../http/respond.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import { regionView } from './districts-by-point.js';
import { assertKnownParams, assertNoCursor, dateParam, minConfidence } from './params.js';

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
export function districtsByAddress(geo: GeoUpstream, limiter: RateLimiter): Router {
  const router = Router();
  router.get('/v1/districts_by_address', async (req: Request, res: Response) => {
    assertKnownParams(req.query, ['address', 'date']);
    const address = req.query['address'];
    if (address === undefined) throw new InvalidParameterError('address', 'address is required.');
    if (typeof address !== 'string') throw new InvalidParameterError('address', 'address must be given once, as a plain value.');
    const date = dateParam(req.query, 'date');
    minConfidence(req.query);
    assertNoCursor(req.query);
    // The geo service applies the entitlement policy; nothing here is served from a cache.
    const answer = await geo.districtsByAddress(principalOf(res), address, date);
    const body = JSON.stringify({
      address,
      date,
      geocode: geocodeView(answer.geocode),
      ambiguous: answer.ambiguous,
      data: answer.regions.map(regionView),
      next_cursor: null,
    });
    await sendCacheable(req, res, limiter, { body, cacheControl: CACHE_GEOGRAPHIC });
  });
  return router;
}
