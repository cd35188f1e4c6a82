import type { RateLimiter, VersionRegistry } from '@civicgraph/kit';
import type { Router } from 'express';
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
 * the app itself: a router of their own would be entered, with its own bookkeeping, by
 * every request on its way to the route it wants.
 */
export function restRoutes(app: Router, deps: RestDeps): void {
  const cached = { limiter: deps.limiter, responses: deps.responses, versions: deps.versions };
  const guard = pathGuard(ENDPOINTS);
  app.use(guard.prefixes, guard.handler);
  districtsByPoint(app, deps.geo, cached);
  districtsByAddress(app, deps.geo, deps.limiter, deps.versions);
  regions(app, deps.geo, deps.limiter, deps.versions);
  ballot(app, deps, cached);
  contests(app, deps.graph, cached);
  candidacies(app, deps.graph, cached);
  officeholders(app, deps.graph, cached);
  results(app, deps.results, cached);
  electionDates(app, deps.graph, cached);
  metaLayers(app, cached);
}
