import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  assertEnvironment,
  enabledEntitlements,
  httpRequestSeconds,
  InvalidParameterError,
  RateLimitedError,
  UnauthenticatedError,
  UnsupportedVersionError,
  type DeploymentEnvironment,
  type Logger,
  type RateLimiter,
  type VersionRegistry,
} from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { PrincipalCache } from './principal-cache.js';
import { contextOf, type RequestContext } from './request-context.js';
import { routeOf } from './trace-requests.js';

/** Requests without a usable key are limited per client address at the Explore rate. */
export const ANONYMOUS_LIMIT_PER_MINUTE = 60;

/** Lookups of keys the gateway has not seen confirmed, per client address and minute; past it, 429 without asking auth. */
export const KEY_LOOKUPS_PER_MINUTE = 300;

/**
 * Gives every request an id (`Civic-Request-Id`, echoed in problem bodies), and when its
 * answer is sent times it into civic_http_request_duration_seconds by its route template
 * and writes one access-log line: the id the client saw, method, path (never the query
 * string, which can hold what a client should not have sent), status, time, the key's id
 * once authenticated, and the trace id (tracing on). Logged at `info`; LOG_LEVEL=warn
 * silences it.
 */
export function requestContext(log: Logger): RequestHandler {
  // One listener for every response (`this` is the response), not a closure per request.
  function finished(this: Response): void {
    const req = this.req;
    const ctx = this.locals['civic'] as RequestContext;
    const seconds = (performance.now() - ctx.started) / 1000;
    // The route's template, never the path itself: a label per slug would grow without bound.
    const route = routeOf(req);
    requestTimer(req.method, route, this.statusCode).observe(seconds);
    if (!log.isLevelEnabled('info')) return;
    log.info(
      {
        req_id: ctx.requestId,
        method: req.method,
        path: req.path,
        status: this.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
        key_id: ctx.principal?.keyId,
        trace_id: this.locals['traceId'] as string | undefined,
      },
      'request',
    );
  }
  return (_req, res, next) => {
    const ctx: RequestContext = { requestId: newRequestId(), started: performance.now() };
    res.locals['civic'] = ctx;
    res.setHeader('Civic-Request-Id', ctx.requestId);
    res.on('finish', finished);
    next();
  };
}

type RequestTimer = ReturnType<typeof httpRequestSeconds.labels>;

/**
 * The histogram's child for one method, route template and status, made once: observing
 * through a label object builds and validates that object on every request. Bounded: Node's
 * parser accepts only known methods, routes are templates, statuses are few.
 */
const requestTimers = new Map<string, RequestTimer>();

function requestTimer(method: string, route: string, status: number): RequestTimer {
  const id = `${method} ${status} ${route}`;
  let timer = requestTimers.get(id);
  if (timer === undefined) {
    timer = httpRequestSeconds.labels(method, route, String(status));
    requestTimers.set(id, timer);
  }
  return timer;
}

/** A request id: `req_` and 32 hex digits. */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}

// RFC 9110 §11.1: the scheme is case-insensitive, so `bearer` is as good as `Bearer`.
const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/** Longest Authorization header read; a key is 48 characters, so anything longer is not one. */
export const MAX_AUTHORIZATION_LENGTH = 256;

/** Query parameters that would put a key in a URL (and so in every log on its way). */
const KEY_PARAMETERS = ['api_key', 'apikey', 'key', 'access_token', 'token', 'authorization'];

export interface EdgeDeps {
  principals: PrincipalCache;
  limiter: RateLimiter;
  versions: VersionRegistry;
  /** The environment this deployment serves; keys of the other one are refused. */
  serves: DeploymentEnvironment;
}

/**
 * Authenticates, resolves the API version and checks the rate limit without counting.
 * Counting happens when the response is known (a 304 does not count).
 */
export function edge(deps: EdgeDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    await guard(req, res, deps);
    next();
  };
}

async function guard(req: Request, res: Response, { principals, limiter, versions, serves }: EdgeDeps): Promise<void> {
  const ctx = contextOf(res);
  // Everything behind the edge depends on the key (refusals included) and on the version.
  res.setHeader('Vary', VARY);
  const asked = req.get('Civic-Version');
  let principal;
  try {
    refuseKeyParameters(req.query);
    // A key the gateway has not seen confirmed is looked up only while the client address
    // has lookups left this minute: made-up keys cost a map lookup, not an auth call.
    principal = await authenticate(req.get('Authorization'), req.rawHeaders, principals, serves, () =>
      lookupAllowance(limiter, `lookups:${req.ip ?? 'unknown'}`),
    );
  } catch (err) {
    // A refused key counts against the client address, at the Explore rate; the version is
    // echoed even so: the asked one if known, else the latest.
    ctx.bucket = { id: `ip:${req.ip ?? 'unknown'}`, limit: ANONYMOUS_LIMIT_PER_MINUTE };
    const trimmed = asked?.trim() ?? '';
    res.setHeader('Civic-Version', versions.has(trimmed) ? trimmed : versions.latest);
    throw err;
  }
  ctx.principal = principal;
  ctx.bucket = bucketOf(principal);
  res.setHeader('Civic-Entitlements', entitlementsHeader(principal));
  try {
    ctx.version = resolveVersion(versions, asked, principal.pinnedVersion);
  } finally {
    res.setHeader('Civic-Version', ctx.version ?? versions.latest);
  }
  ctx.rate = await limiter.peek(ctx.bucket.id, ctx.bucket.limit);
  if (!ctx.rate.allowed) {
    throw new RateLimitedError(`Rate limit of ${ctx.bucket.limit} requests per minute exceeded.`, {
      retryAfter: Math.max(1, Math.ceil(ctx.rate.resetAt - Date.now() / 1000)),
    });
  }
}

/** What every answer behind the edge varies by: the key (refusals included) and the version. */
export const VARY = 'Authorization, Civic-Version';

/** Counts a lookup of an unconfirmed key against the client address; refuses it (429) once the address has used its lookups. */
async function lookupAllowance(limiter: RateLimiter, bucket: string): Promise<void> {
  const rate = await limiter.consume(bucket, KEY_LOOKUPS_PER_MINUTE);
  if (rate.allowed) return;
  throw new RateLimitedError(
    `Too many unknown or refused keys from this address (${KEY_LOOKUPS_PER_MINUTE} lookups a minute); try again later.`,
    {
      retryAfter: Math.max(1, Math.ceil(rate.resetAt - Date.now() / 1000)),
    },
  );
}

/** The rate bucket a key's requests count against. */
export function bucketOf(principal: Principal): { id: string; limit: number } {
  return { id: `key:${principal.keyId}`, limit: principal.rateLimitPerMinute };
}

/**
 * The principal of `Authorization: Bearer <key>` (see bearerKey), refused when the key or
 * its principal belongs to the environment this deployment does not serve.
 */
export async function authenticate(
  authorization: string | undefined,
  rawHeaders: readonly string[],
  principals: PrincipalCache,
  serves: DeploymentEnvironment,
  gate?: () => Promise<void>,
): Promise<Principal> {
  const key = bearerKey(authorization, rawHeaders);
  assertEnvironment(serves, { prefix: key });
  const principal = await principals.get(key, Date.now(), gate);
  assertEnvironment(serves, { principal });
  return principal;
}

/** `Civic-Entitlements` of a principal, per principal object (the cache hands out one per key). */
const entitlementHeaders = new WeakMap<Principal, string>();

export function entitlementsHeader(principal: Principal): string {
  let header = entitlementHeaders.get(principal);
  if (header === undefined) {
    header = enabledEntitlements(principal).join(', ');
    entitlementHeaders.set(principal, header);
  }
  return header;
}

/**
 * A key in the query string is refused before any lookup (400, naming the parameter): URLs
 * are logged everywhere.
 */
function refuseKeyParameters(query: Record<string, unknown>): void {
  for (const name of KEY_PARAMETERS) {
    if (Object.hasOwn(query, name)) {
      throw new InvalidParameterError(
        name,
        `Do not put API keys in URLs, where logs and proxies keep them; send \`Authorization: Bearer <key>\` instead, and consider the key exposed.`,
      );
    }
  }
}

/**
 * The key from `Authorization: Bearer <key>`. Refused before any lookup: two Authorization
 * headers (400: which one is meant?), a header too long to hold a key, and anything not Bearer.
 */
function bearerKey(header: string | undefined, rawHeaders: readonly string[]): string {
  if (authorizationCount(rawHeaders) > 1) {
    throw new InvalidParameterError('Authorization', 'Send exactly one Authorization header.');
  }
  if (header === undefined || header === '') {
    throw new UnauthenticatedError('Send your API key as `Authorization: Bearer <key>`.', { field: 'Authorization' });
  }
  const m = header.length > MAX_AUTHORIZATION_LENGTH ? null : BEARER.exec(header);
  if (m === null) {
    throw new UnauthenticatedError('The Authorization header must be `Bearer <key>`.', { field: 'Authorization' });
  }
  return m[1]!;
}

/** Node keeps only the first of repeated Authorization headers in `req.headers`; the raw list has them all. */
export function authorizationCount(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') n++;
  return n;
}

/** Header → the key's pinned version → latest; an unknown date is refused, listing the known ones. */
export function resolveVersion(versions: VersionRegistry, header: string | undefined, pinned: string): string {
  if (header !== undefined && header !== '') {
    const asked = header.trim();
    if (!versions.has(asked)) {
      throw new UnsupportedVersionError(
        `Civic-Version "${header.slice(0, 40)}" is not a known version; known versions: ${versions.known.join(', ')}.`,
        {
          field: 'Civic-Version',
        },
      );
    }
    return asked;
  }
  return versions.has(pinned) ? pinned : versions.latest;
}
