import { Router, type Request, type Response } from 'express';
import type { RegionVersion } from '@civicgraph/protos/civic/geo/v1/geo';
import { NotFoundError, type RateLimiter } from '@civicgraph/kit';
import { principalOf } from '../http/request-context.js';
import { CACHE_GEOGRAPHIC, sendCacheable } from '../http/respond.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import { regionView } from './districts-by-point.js';
import { assertKnownParams, dateParam, number } from './params.js';

const orNull = (s: string) => (s === '' ? null : s);

function versionView(v: RegionVersion) {
  return { valid_from: orNull(v.validFrom), valid_to: orNull(v.validTo), elections_from: orNull(v.electionsFrom), elections_to: orNull(v.electionsTo) };
}

/**
 * GET /v1/regions/{slug}[?date=] — a region's metadata (OCD id, FIPS, validity of the
 * version in force on the date, every version). GET /v1/regions/{slug}/boundary
 * [?date=&simplify=<metres>] — its outline as a GeoJSON Feature. Both need `geography`.
 */
export function regions(geo: GeoUpstream, limiter: RateLimiter): Router {
  const router = Router();
  router.get('/v1/regions/:slug', async (req: Request, res: Response) => {
    assertKnownParams(req.query, ['date']);
    const slug = req.params['slug'] as string;
    const detail = await geo.getRegion(principalOf(res), slug, dateParam(req.query, 'date'));
    if (detail.region === undefined) throw new NotFoundError(`No region ${slug}.`, { field: 'slug' });
    const body = JSON.stringify({
      ...regionView(detail.region),
      versions: detail.versions.map(versionView),
      boundary_url: `/v1/regions/${encodeURIComponent(slug)}/boundary`,
    });
    await sendCacheable(req, res, limiter, { body, cacheControl: CACHE_GEOGRAPHIC });
  });
  router.get('/v1/regions/:slug/boundary', async (req: Request, res: Response) => {
    assertKnownParams(req.query, ['date', 'simplify']);
    // Parsed here; its range is the geo service's rule (GetBoundary), stated once.
    const simplify = req.query['simplify'] === undefined ? 0 : number(req.query, 'simplify', -Infinity, Infinity);
    const b = await geo.getBoundary(principalOf(res), req.params['slug'] as string, dateParam(req.query, 'date'), simplify);
    const body = `{"type":"Feature","properties":${JSON.stringify({
      slug: b.slug, valid_from: orNull(b.validFrom), valid_to: orNull(b.validTo), simplify_meters: simplify, vertices: b.vertices, source_vertices: b.sourceVertices,
    })},"geometry":${b.geometryJson}}`;
    await sendCacheable(req, res, limiter, { body, cacheControl: CACHE_GEOGRAPHIC, contentType: 'application/geo+json' });
  });
  return router;
}
