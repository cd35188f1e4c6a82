import type { Request, Response, Router } from 'express';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { RegionVersion } from '@civicgraph/protos/civic/geo/v1/geo';
import { NotFoundError, type RateLimiter, type VersionRegistry } from '@civicgraph/kit';
import { principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable } from '../http/respond.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import { boundarySource, regionView } from './districts-by-point.js';
import { renderFor, type Endpoint } from './endpoint.js';
import { orNull } from './schema/json-schema.js';
import { dateOr, P, readParams, type Params } from './schema/params.js';

const REGION_SLUG = P.slug('region', 'region:co-cd-1');

export const REGION_ENDPOINTS = {
  get: {
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

function versionView(v: RegionVersion) {
  return {
    valid_from: orNull(v.validFrom),
    valid_to: orNull(v.validTo),
    elections_from: orNull(v.electionsFrom),
    elections_to: orNull(v.electionsTo),
    imported_at: orNull(v.importedAt),
    ...boundarySource(v),
  };
}

/**
 * GET /v1/regions/{slug}[?date=] — a region's metadata (OCD id, FIPS, validity of the
 * version in force on the date, every version). GET /v1/regions/{slug}/boundary
 * [?date=&simplify=<metres>] — its outline as a GeoJSON Feature. Both need `geography`.
 */
export function regions(router: Router, geo: GeoUpstream, limiter: RateLimiter, versions: VersionRegistry): void {
  router.get('/v1/regions/:slug', async (req: Request, res: Response) => {
    const params = readParams(REGION_ENDPOINTS.get.params, req.query, req.params as Record<string, string>);
    const slug = params['slug'] as string;
    const detail = await geo.getRegion(principalOf(res), slug, dateOr(params, 'date'));
    if (detail.region === undefined) throw new NotFoundError(`No region ${slug}.`, { field: 'slug' });
    const body = renderFor(res, versions, REGION_ENDPOINTS.get, {
      ...regionView(detail.region),
      versions: detail.versions.map(versionView),
      boundary_url: `/v1/regions/${encodeURIComponent(slug)}/boundary`,
    });
    await sendCacheable(req, res, limiter, { body, cacheControl: CACHE_GEOGRAPHIC });
  });
  router.get('/v1/regions/:slug/boundary', async (req: Request, res: Response) => {
    const params = readParams(REGION_ENDPOINTS.boundary.params, req.query, req.params as Record<string, string>);
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
