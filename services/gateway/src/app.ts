import express, { type Express } from 'express';
import type { DeploymentEnvironment, Logger, RateLimiter, VersionRegistry } from '@civicgraph/kit';
import type { ResponseCache } from './cache/response-cache.js';
import { adminKeyRoutes } from './admin/key-routes.js';
import { adminSourceRoutes } from './admin/source-routes.js';
import { graphiql } from './graphql/graphiql.js';
import { graphqlRoute } from './graphql/route.js';
import { graphqlSchemas } from './graphql/schema.js';
import { crossOrigin } from './http/cors.js';
import { edge, requestContext } from './http/edge.js';
import { exploreRoutes } from './explore/routes.js';
import { traceRequests } from './http/trace-requests.js';
import { notFound, problemHandler } from './http/errors.js';
import { healthRoutes } from './http/health-routes.js';
import { layerGates } from './http/layer-gates.js';
import type { PrincipalCache } from './http/principal-cache.js';
import { openApiRoutes } from './rest/openapi/route.js';
import { restRoutes } from './rest/routes.js';
import type { GeoUpstream } from './upstream/geo-client.js';
import type { GraphUpstream, ResultsUpstream } from './upstream/graph-client.js';
import type { AuthUpstream } from './upstream/auth-client.js';
import type { HealthProbe } from './upstream/health-client.js';
import type { WebhooksUpstream } from './upstream/webhooks-client.js';
import type { IngestUpstream } from './upstream/ingest-client.js';
import { webhookRoutes } from './rest/webhooks/routes.js';
import { cypherRoutes } from './rest/cypher/routes.js';
import { agentRoutes } from './agent/route.js';
import { exportLinkRoutes, exportRoutes } from './rest/exports/routes.js';
import type { ExportsUpstream } from './upstream/exports-client.js';

export interface AppDeps {
  principals: PrincipalCache;
  auth: AuthUpstream;
  /** Token of the admin API (CIVIC_ADMIN_TOKEN); undefined → no admin API. */
  adminToken: string | undefined;
  limiter: RateLimiter;
  geo: GeoUpstream;
  graph: GraphUpstream;
  results: ResultsUpstream;
  /** Bulk exports, served by the graph service. */
  exports: ExportsUpstream;
  /** The webhooks service, when the deployment runs one. */
  webhooks: WebhooksUpstream | undefined;
  /** The ingest service, when the deployment runs one (admin API). */
  ingest: IngestUpstream | undefined;
  responses: ResponseCache;
  versions: VersionRegistry;
  /** The environment this deployment serves (CIVIC_ENV). */
  serves: DeploymentEnvironment;
  probes: HealthProbe[];
  /** Degradations that do not stop serving, reported by `/readyz` (e.g. rate limits counted locally). */
  readiness?: () => Record<string, string>;
  isStopping: () => boolean;
  log: Logger;
}

/** The HTTP surface: health, GraphiQL, docs, the explorer, then everything behind the edge (auth, version, rate). */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags are ours: strong, over the exact bytes served.
  app.set('query parser', 'simple');
  app.use(traceRequests());
  app.use(requestContext(deps.log));
  // First: a preflight carries no key, and the public documents answer other origins too.
  crossOrigin(app);
  // Registered on the app itself, not as routers mounted at `/`: a request that is not for
  // them then pays one path test per route instead of entering a router.
  healthRoutes(app, deps.probes, deps.isStopping, deps.readiness);
  graphiql(app);
  openApiRoutes(app);
  exploreRoutes(app);
  adminKeyRoutes(app, deps.auth, deps.adminToken);
  adminSourceRoutes(app, deps.ingest, deps.adminToken);
  exportLinkRoutes(app, deps);
  app.use(edge(deps));
  // The /v1 resources first: most requests are for them, and none of their paths is a
  // gated layer's, so they need not be tested against every layer's routes on the way.
  restRoutes(app, deps);
  layerGates(app);
  if (deps.webhooks !== undefined) webhookRoutes(app, deps.webhooks, deps.limiter);
  cypherRoutes(app, deps);
  agentRoutes(app, deps);
  exportRoutes(app, deps);
  graphqlRoute(app, graphqlSchemas(deps), deps.limiter, deps.responses);
  app.use(notFound());
  app.use(problemHandler(deps.limiter, deps.log));
  return app;
}
