import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, restLevel, type RateLimiter, type VersionRegistry } from '@civicgraph/kit';
import type { Request, Response, Router } from 'express';
import type { GeoLookup } from '../geo-lookup.js';
import { contextOf, principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable, strongEtag } from '../http/respond.js';
import type { Endpoint } from './endpoint.js';
import { dateOr, P, readParams } from './schema/params.js';

/** `DISTRICT_ROLE_SERVING` → `serving`. */
export function roleWord(role: DistrictRole): string {
  return (DistrictRole[role] ?? 'DISTRICT_ROLE_UNSPECIFIED').slice('DISTRICT_ROLE_'.length).toLowerCase();
}

/** REST shape of a region (snake_case; nullable where the source may lack a value). */
/** Where an outline came from and how exact it is (Region and RegionVersion alike). */
export function boundarySource(r: { source: string; precision: string; scaleDenominator: number }) {
  return { source: r.source === '' ? null : r.source, precision: r.precision, scale_denominator: r.scaleDenominator === 0 ? null : r.scaleDenominator };
}

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
  description: 'Every region whose boundary, in force on the date, contains the point: exact polygon tests against real boundaries, not postal-code approximations. During redistricting a district is marked `serving` (its winners hold office now) and/or `electing` (elections on the date use it). Needs the `geography` entitlement. `min_confidence` is accepted for uniformity; boundaries carry no confidence score.',
  params: [P.lat, P.lng, P.date('The day asked about'), P.minConfidence, P.singlePageCursor],
  response: 'DistrictsAtPoint',
  cache: 'geographic',
  errors: ['invalid_parameter', 'entitlement_required'],
};

/**
 * GET /v1/districts_by_point?lat=&lng=[&date=] — every district containing the point on the
 * date (default today), each marked serving and/or electing.
 */
export function districtsByPoint(router: Router, lookup: GeoLookup, limiter: RateLimiter, versions: VersionRegistry): void {
  router.get('/v1/districts_by_point', async (req: Request, res: Response) => {
    const params = readParams(DISTRICTS_BY_POINT.params, req.query);
    const lat = assertCoordinate('lat', params['lat'] as number);
    const lng = assertCoordinate('lng', params['lng'] as number);
    const date = dateOr(params, 'date');
    const { entry, hit } = await lookup.districtsAtPoint(principalOf(res), lat, lng, date);
    const version = contextOf(res).version ?? versions.latest;
    let rendered = entry.rendered.get(`rest:${version}`);
    if (rendered === undefined) {
      const view = { point: { lat, lng }, date, data: entry.regions.map(regionView), next_cursor: null };
      const body = Buffer.from(JSON.stringify(versions.shape(version, DISTRICTS_BY_POINT.operationId, view)));
      rendered = { body, etag: strongEtag(body) };
      lookup.cache.render(entry, `rest:${version}`, rendered);
    }
    res.setHeader('Civic-Cache', hit ? 'hit' : 'miss');
    await sendCacheable(req, res, limiter, { ...rendered, cacheControl: CACHE_GEOGRAPHIC });
  });
}
