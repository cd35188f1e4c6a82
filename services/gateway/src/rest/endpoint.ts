import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ErrorType, RateLimiter, VersionRegistry } from '@civicgraph/kit';
import type { Request, Response, Router } from 'express';
import { responseKey, slugsIn, type ResponseCache } from '../cache/response-cache.js';
import { contextOf, principalOf } from '../http/request-context.js';
import { CACHE_CANDIDACY, CACHE_GEOGRAPHIC, sendCacheable, strongEtag } from '../http/respond.js';
import type { GeoUpstream } from '../upstream/geo-client.js';
import type { GraphUpstream, ResultsUpstream } from '../upstream/graph-client.js';
import { readParams, type ParamSpec, type Params } from './schema/params.js';

/** Freshness group of DESIGN: geographic a day, candidacy-bearing five minutes. */
export type CacheGroup = 'geographic' | 'candidacy' | 'none';

/** One GET endpoint as documented: the registry /v1/openapi.json is generated from. */
export interface Endpoint {
  operationId: string;
  /** OpenAPI path, `/v1/contests/{slug}`. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  params: readonly ParamSpec[];
  /** Component schema of the 200 body. */
  response: string;
  cache: CacheGroup;
  /** Problem types this endpoint can answer with beyond the common ones (401, 429, 503…). */
  errors: readonly ErrorType[];
  /** Media type of the 200 body; default application/json. */
  contentType?: string;
  /** Its body over the upstreams (absent where a route of its own answers); REST and the agent's tools both call it. */
  answer?: (upstreams: Upstreams) => Answer;
  /** Answered afresh each time, never kept in the response cache. */
  uncached?: true;
}

/** An endpoint with its answer: what mountEndpoint mounts and the agent's tools call. */
export type AnsweredEndpoint = Endpoint & Required<Pick<Endpoint, 'answer'>>;

/** `/v1/contests/{slug}` → `/v1/contests/:slug`. */
function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function cacheControl(group: CacheGroup): string {
  return group === 'geographic' ? CACHE_GEOGRAPHIC : group === 'candidacy' ? CACHE_CANDIDACY : 'no-store';
}

export interface RouteDeps {
  limiter: RateLimiter;
  responses: ResponseCache;
  versions: VersionRegistry;
}

/** The services the answers call. */
export interface Upstreams {
  geo: GeoUpstream;
  graph: GraphUpstream;
  results: ResultsUpstream;
}

/** Builds the newest-shape body of an endpoint from its validated parameters. */
export type Answer = (params: Params, principal: Principal) => Promise<unknown>;

/** Mounts an endpoint that carries its answer: kept in the response cache unless `uncached`. */
export function mountEndpoint(router: Router, endpoint: AnsweredEndpoint, deps: RouteDeps & Upstreams): void {
  const answer = endpoint.answer(deps);
  if (endpoint.uncached === undefined) return mountCached(router, endpoint, deps, answer);
  router.get(expressPath(endpoint.path), async (req: Request, res: Response) => {
    const params = readParams(endpoint.params, req.query, req.params as Record<string, string>);
    const version = contextOf(res).version ?? deps.versions.latest;
    const view = deps.versions.shape(version, endpoint.operationId, await answer(params, principalOf(res)));
    const body = Buffer.from(JSON.stringify(view));
    await sendCacheable(req, res, deps.limiter, { body, cacheControl: cacheControl(endpoint.cache) });
  });
}

/**
 * Mounts a graph-backed endpoint: parameters read by the endpoint's own schema, the
 * answer shaped for the caller's version, rendered once and kept in the response cache
 * (keyed by everything the answer depends on: the caller's policy fingerprint, the
 * version, today's date for date defaults, and the request), so a repeat, and above all a
 * revalidation answered 304, costs no upstream call.
 */
export function mountCached(router: Router, endpoint: Endpoint, deps: RouteDeps, answer: Answer): void {
  router.get(expressPath(endpoint.path), async (req: Request, res: Response) => {
    const params = readParams(endpoint.params, req.query, req.params as Record<string, string>);
    const version = contextOf(res).version ?? deps.versions.latest;
    await serveCached(req, res, deps, cacheControl(endpoint.cache), async () =>
      deps.versions.shape(version, endpoint.operationId, await answer(params, principalOf(res))),
    );
  });
}

/**
 * Sends the kept answer to this request, or builds, keeps and sends it; `slugs` names what
 * the answer depends on (a change to any drops it).
 */
export async function serveCached<T>(
  req: Request,
  res: Response,
  deps: RouteDeps,
  cacheControl: string,
  build: () => Promise<T>,
  slugs: (view: T) => string[] = slugsIn,
): Promise<void> {
  const key = responseKey(principalOf(res), contextOf(res).version ?? deps.versions.latest, req.url);
  let cached = deps.responses.get(key);
  res.setHeader('Civic-Cache', cached === undefined ? 'miss' : 'hit');
  if (cached === undefined) {
    const generation = deps.responses.mark();
    const view = await build();
    const body = Buffer.from(JSON.stringify(view));
    cached = { body, etag: strongEtag(body), cacheControl };
    deps.responses.set(key, cached, slugs(view), generation);
  }
  await sendCacheable(req, res, deps.limiter, cached);
}
