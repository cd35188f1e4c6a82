import type { RateLimiter, VersionRegistry } from '@civicgraph/kit';
import { Router } from 'express';
import type { ResponseCache } from '../cache/response-cache.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import type { GraphUpstream, ResultsUpstream } from '../upstream/graph-client.js';
import { ballot } from './ballot.js';
import { candidacies } from './candidacies.js';
import { contests } from './contests.js';
import { districtsByAddress } from './districts-by-address.js';
import { districtsByPoint } from './districts-by-point.js';
import { electionDates } from './election-dates.js';
import { ENDPOINTS } from './endpoints.js';
import { pathGuard } from './path-guard.js';
import { metaLayers } from './meta-layers.js';
import { officeholders } from './officeholders.js';
import { regions } from './regions.js';
import { results } from './results.js';

export interface RestDeps {
  limiter: RateLimiter;
  versions: VersionRegistry;
  responses: ResponseCache;
  geo: GeoUpstream;
  graph: GraphUpstream;
  results: ResultsUpstream;
}

/**
 * Every /v1 route (behind the edge: authenticated, versioned, rate-checked), registered on
 * one router: a router per resource mounted at `/` would be entered, with its own
 * bookkeeping, by every request on its way to the route it wants.
 */
export function restRoutes(deps: RestDeps): Router {
  const router = Router();
  const cached = { limiter: deps.limiter, responses: deps.responses, versions: deps.versions };
  router.use(pathGuard(ENDPOINTS));
  districtsByPoint(router, deps.geo, cached);
  districtsByAddress(router, deps.geo, deps.limiter, deps.versions);
  regions(router, deps.geo, deps.limiter, deps.versions);
  ballot(router, deps, cached);
  contests(router, deps.graph, cached);
  candidacies(router, deps.graph, cached);
  officeholders(router, deps.graph, cached);
  results(router, deps.results, cached);
  electionDates(router, deps.graph, cached);
  metaLayers(router, cached);
  return router;
}
