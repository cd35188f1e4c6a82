import type { Router } from 'express';
import { etagMatches, strongEtag } from '../../http/respond.js';
import { ENDPOINTS } from '../endpoints.js';
import { COMPONENTS } from '../schema/components.js';
import { buildOpenApi } from './build.js';
import { docsRoutes } from './docs.js';
import { API_INFO } from './info.js';

/** The served document changes only with a deployment; a day's freshness is plenty. */
const CACHE_CONTROL = 'private, max-age=86400';

/**
 * GET /v1/openapi.json (the REST API's OpenAPI 3.1 document, built once) and GET /docs.
 * Both are public: mount them before the edge, which would ask for a key.
 */
export function openApiRoutes(router: Router): void {
  const body = Buffer.from(JSON.stringify(buildOpenApi(ENDPOINTS, COMPONENTS, API_INFO)));
  const etag = strongEtag(body);
  router.get('/v1/openapi.json', (req, res) => {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    if (etagMatches(req.get('If-None-Match'), etag)) return void res.status(304).end();
    res.status(200).type('application/json').send(body);
  });
  docsRoutes(router);
}
