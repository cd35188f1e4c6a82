import type { Router } from 'express';
import { mountEndpoint, type AnsweredEndpoint, type RouteDeps, type Upstreams } from './endpoint.js';
import { ENDPOINTS } from './endpoints.js';
import { boundaryRoute } from './geography.js';
import { pathGuard } from './path-guard.js';

/**
 * Every /v1 route (behind the edge: authenticated, versioned, rate-checked), registered on
 * the app itself: a router of their own would be entered, with its own bookkeeping, by
 * every request on its way to the route it wants.
 */
export function restRoutes(app: Router, deps: RouteDeps & Upstreams): void {
  const guard = pathGuard(ENDPOINTS);
  app.use(guard.prefixes, guard.handler);
  for (const e of ENDPOINTS) if (e.answer !== undefined) mountEndpoint(app, e as AnsweredEndpoint, deps);
  boundaryRoute(app, deps.geo, deps.limiter);
}
