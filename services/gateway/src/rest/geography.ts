import type { Request, Response, Router } from 'express';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { assertCoordinate, NotFoundError, type RateLimiter } from '@civicgraph/kit';
import { principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable } from '../http/respond.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import type { Endpoint } from './endpoint.js';
import { geocodeView, regionView, versionView } from './resources/region.js';
import { orNull } from './schema/json-schema.js';
import { dateOr, P, readParams, type Params } from './schema/params.js';

const REGION_SLUG = P.slug('region', 'region:co-cd-1');

/** The geographic endpoints: the geo service applies the entitlement policy (`geography`). */
export const GEOGRAPHY_ENDPOINTS = {
  byPoint: {
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
    answer:
      ({ geo }) =>
      async (params, principal) => {
        const lat = assertCoordinate('lat', params['lat'] as number);
        const lng = assertCoordinate('lng', params['lng'] as number);
        const date = dateOr(params, 'date');
        const { regions } = await geo.districtsAtPoint(principal, lat, lng, date);
        return { point: { lat, lng }, date, data: regions.map(regionView), next_cursor: null };
      },
  },
  byAddress: {
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
    uncached: true,
    answer:
      ({ geo }) =>
      async (params, principal) => {
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
      },
  },
  region: {
    operationId: 'getRegion',
    path: '/v1/regions/{slug}',
    tag: 'Geography',
    summary: "A region's metadata",
    description:
      "Name, level, OCD id, FIPS/GEOID and population of the region's version in force on the date, with the validity of every version. Needs the `geography` entitlement.",
    params: [REGION_SLUG, P.date('The day asked about'), P.minConfidence, P.singlePageCursor],
    response: 'RegionDetail',
    cache: 'geographic',
    errors: ['invalid_parameter', 'entitlement_required', 'not_found'],
    uncached: true,
    answer:
      ({ geo }) =>
      async (params, principal) => {
        const slug = params['slug'] as string;
        const detail = await geo.getRegion(principal, slug, dateOr(params, 'date'));
        if (detail.region === undefined) throw new NotFoundError(`No region ${slug}.`, { field: 'slug' });
        return {
          ...regionView(detail.region),
          versions: detail.versions.map(versionView),
          boundary_url: `/v1/regions/${encodeURIComponent(slug)}/boundary`,
        };
      },
  },
  boundary: {
    operationId: 'getRegionBoundary',
    path: '/v1/regions/{slug}/boundary',
    tag: 'Geography',
    summary: "A region's boundary as GeoJSON",
    description:
      'The outline of the version in force on the date as a GeoJSON Feature, optionally simplified. Needs the `geography` entitlement.',
    params: [
      REGION_SLUG,
      P.date('The day asked about'),
      {
        name: 'simplify',
        in: 'query',
        required: false,
        description:
          'Simplification tolerance in metres (0 = full resolution); the geo service states the accepted range in its error.',
        schema: { type: 'number', default: 0 },
        example: 100,
      },
      P.minConfidence,
      P.singlePageCursor,
    ],
    response: 'Boundary',
    cache: 'geographic',
    errors: ['invalid_parameter', 'entitlement_required', 'not_found'],
    contentType: 'application/geo+json',
  },
} satisfies Record<string, Endpoint>;

/**
 * GET /v1/regions/{slug}/boundary[?date=&simplify=<metres>]: the outline as a GeoJSON
 * Feature, its geometry spliced in as the geo service wrote it (never parsed here).
 */
export function boundaryRoute(router: Router, geo: GeoUpstream, limiter: RateLimiter): void {
  router.get('/v1/regions/:slug/boundary', async (req: Request, res: Response) => {
    const params = readParams(GEOGRAPHY_ENDPOINTS.boundary.params, req.query, req.params as Record<string, string>);
    const b = await regionBoundary(geo, params, principalOf(res));
    const body = `{"type":"Feature","properties":${JSON.stringify(b.properties)},"geometry":${b.geometryJson}}`;
    await sendCacheable(req, res, limiter, {
      body,
      cacheControl: CACHE_GEOGRAPHIC,
      contentType: 'application/geo+json',
      tooLarge: boundaryTooLarge(b.properties),
    });
  });
}

/** A region's outline: the Feature's properties, and its geometry as the geo service wrote it (GeoJSON text). */
export async function regionBoundary(geo: GeoUpstream, params: Params, principal: Principal) {
  // Parsed here; its range is the geo service's rule (GetBoundary), stated once.
  const simplify = params['simplify'] as number;
  const b = await geo.getBoundary(principal, params['slug'] as string, dateOr(params, 'date'), simplify);
  const properties = {
    slug: b.slug,
    valid_from: orNull(b.validFrom),
    valid_to: orNull(b.validTo),
    simplify_meters: simplify,
    vertices: b.vertices,
    source_vertices: b.sourceVertices,
  };
  return { properties, geometryJson: b.geometryJson };
}

/** What to say when an outline is over the plan's response ceiling: simplify more. */
export function boundaryTooLarge(p: { vertices: number; simplify_meters: number }) {
  return {
    field: 'simplify',
    hint: `Its outline has ${p.vertices} vertices at simplify=${p.simplify_meters}; ask with a larger simplify (meters).`,
  };
}
