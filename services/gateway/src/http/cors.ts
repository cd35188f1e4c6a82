import type { Router } from 'express';

/**
 * The public API's paths a page on another origin may call: REST and GraphQL. The admin API
 * is left out on purpose: it is for operators' tools, never for a browser on someone's page.
 */
const CROSS_ORIGIN = /^\/(v1|graphql)(\/|$)/;

/** Request headers a browser may send cross-origin beyond the CORS-safelisted ones. */
const ALLOW_HEADERS = 'Authorization, Civic-Version, Content-Type, If-None-Match, Accept';

/** Response headers a cross-origin script may read: the request id, version, cache and rate headers. */
const EXPOSE_HEADERS = [
  'Civic-Request-Id',
  'Civic-Version',
  'Civic-Cache',
  'Civic-Entitlements',
  'Civic-RateLimit-Limit',
  'Civic-RateLimit-Remaining',
  'Civic-RateLimit-Reset',
  'Retry-After',
  'ETag',
].join(', ');

/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for the public API, so the ballot widget works embedded on a newsroom's page. Any
 * origin is allowed and credentials never are: the API authenticates by a bearer key the
 * calling script holds, not by cookies, so an origin gains nothing a script could not
 * already do with the same key from a server. Preflights are answered here, before the
 * edge: they carry no Authorization header and would otherwise be refused as
 * unauthenticated.
 */
export function crossOrigin(router: Router): void {
  router.use((req, res, next) => {
    if (!CROSS_ORIGIN.test(req.path)) return next();
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method !== 'OPTIONS') {
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, DELETE');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  });
}
