import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { restLevel, type ApiVersion, type RateLimiter } from '@civicgraph/kit';
import { Router, type Request, type Response } from 'express';
import type { GeoLookup } from '../geo-lookup.js';
import { contextOf, principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable, strongEtag } from '../http/respond.js';
import { assertKnownParams, assertNoCursor, coordinate, dateParam, minConfidence } from './params.js';

/** `DISTRICT_ROLE_SERVING` → `serving`. */
export function roleWord(role: DistrictRole): string {
  return (DistrictRole[role] ?? 'DISTRICT_ROLE_UNSPECIFIED').slice('DISTRICT_ROLE_'.length).toLowerCase();
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
    ...(r.share === undefined ? {} : { share: Math.round(r.share * 1000) / 1000 }),
  };
}

/**
 * GET /v1/districts_by_point?lat=&lng=[&date=] — every district containing the point on the
 * date (default today), each marked serving and/or electing.
 */
export function districtsByPoint(lookup: GeoLookup, limiter: RateLimiter): Router {
  const router = Router();
  router.get('/v1/districts_by_point', async (req: Request, res: Response) => {
    assertKnownParams(req.query, ['lat', 'lng', 'date']);
    const lat = coordinate(req.query, 'lat');
    const lng = coordinate(req.query, 'lng');
    const date = dateParam(req.query, 'date');
    minConfidence(req.query);
    assertNoCursor(req.query);
    const { entry, hit } = await lookup.districtsAtPoint(principalOf(res), lat, lng, date);
    const version = contextOf(res).version as ApiVersion;
    let rendered = entry.rendered.get(`rest:${version}`);
    if (rendered === undefined) {
      const body = JSON.stringify({ point: { lat, lng }, date, data: entry.regions.map(regionView), next_cursor: null });
      rendered = { body, etag: strongEtag(body) };
      entry.rendered.set(`rest:${version}`, rendered);
    }
    res.setHeader('Civic-Cache', hit ? 'hit' : 'miss');
    await sendCacheable(req, res, limiter, { ...rendered, cacheControl: CACHE_GEOGRAPHIC });
  });
  return router;
}
