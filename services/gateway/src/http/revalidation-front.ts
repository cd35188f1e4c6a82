import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RateDecision } from '@civicgraph/kit';
import { responseKey, type CachedResponse, type ResponseCache } from '../cache/response-cache.js';
import { authenticate, bucketOf, entitlementsHeader, newRequestId, resolveVersion, VARY, type EdgeDeps } from './edge.js';
import { rateHeaders } from './rate-headers.js';
import { etagMatches } from './respond.js';

export interface FrontDeps extends EdgeDeps {
  responses: ResponseCache;
}

/**
 * Answers a revalidation before express: a GET with `If-None-Match` naming the ETag of an
 * answer in the response cache gets the 304 the whole pipeline would send, with the same
 * headers, decided by the same functions (the edge's authentication, version resolution
 * and rate bucket, the cache's key). Even with requests built with its prototypes (see
 * express-server.ts), express's request pipeline costs close to twice what Node's HTTP
 * server does per request here: a 304 through express 117 µs, through this front 71 µs, a
 * bare Node request 64 µs (BENCHMARKS.md, REST CPU table).
 *
 * Anything else goes to express untouched, nothing written: another method, no validator,
 * a miss, another ETag, a refused key, an unknown version, an exhausted rate budget, or
 * any failure here. Express then answers as it always does (the 429, the 401, the 200).
 * A URL is in the response cache only once it passed the whole pipeline (key parameters
 * refused, parameters validated), so a hit here needs no second look at the query.
 */
export class RevalidationFront {
  private count = 0;

  constructor(private readonly deps: FrontDeps) {}

  /** Revalidations answered here (304s express never saw), since start. */
  get answered(): number {
    return this.count;
  }

  /** A request listener: revalidations answered here, everything else handed to `app`. */
  listener(app: RequestListener): RequestListener {
    return (req, res) => {
      if (req.method !== 'GET' || req.headers['if-none-match'] === undefined) return void app(req, res);
      revalidate(req, res, this.deps).then(
        (answered) => (answered ? void this.count++ : void app(req, res)),
        () => app(req, res),
      );
    };
  }
}

/** Sends the 304 and resolves true, or resolves false having written nothing. */
async function revalidate(req: IncomingMessage, res: ServerResponse, deps: FrontDeps): Promise<boolean> {
  // Only keys already confirmed are answered here; any other goes through the pipeline, whose edge limits unknown keys per address.
  const principal = await authenticate(req.headers.authorization, req.rawHeaders, deps.principals, deps.serves, () => Promise.reject(new Error('unknown key')));
  const asked = req.headers['civic-version'];
  const version = resolveVersion(deps.versions, Array.isArray(asked) ? asked.join(', ') : asked, principal.pinnedVersion);
  const cached = deps.responses.get(responseKey(principal, version, req.url ?? ''));
  if (cached === undefined || !etagMatches(req.headers['if-none-match'], cached.etag)) return false;
  const bucket = bucketOf(principal);
  const rate = await deps.limiter.peek(bucket.id, bucket.limit);
  if (!rate.allowed) return false;
  res.writeHead(304, notModifiedHeaders(entitlementsHeader(principal), version, cached, rate));
  res.end();
  return true;
}

/**
 * The headers of the pipeline's 304 for a cached answer, as the flat list writeHead takes
 * (set in one call rather than eleven setHeader calls).
 */
function notModifiedHeaders(entitlements: string, version: string, cached: CachedResponse, rate: RateDecision): string[] {
  return [
    'Civic-Request-Id', newRequestId(),
    'Vary', VARY,
    'Civic-Entitlements', entitlements,
    'Civic-Version', version,
    'Civic-Cache', 'hit',
    'ETag', cached.etag,
    'Cache-Control', cached.cacheControl,
    ...rateHeaders(rate),
  ];
}
