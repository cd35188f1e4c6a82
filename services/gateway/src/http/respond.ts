import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { queryBudget, RateLimitedError, ResponseTooLargeError, type RateLimiter } from '@civicgraph/kit';
import { contextOf } from './request-context.js';
import { VARY } from './edge.js';
import { setRateHeaders } from './rate-headers.js';

/** Cache policies of DESIGN: geographic data a day, candidacy-bearing data five minutes. */
export const CACHE_GEOGRAPHIC = 'private, max-age=86400';
export const CACHE_CANDIDACY = 'private, max-age=300';

/** A serialised body: text or bytes. */
export type Body = string | Buffer;

export interface JsonPayload {
  /** Serialised body (UTF-8 text or bytes); its bytes determine the strong ETag. */
  body: Body;
  cacheControl: string;
  etag?: string;
  /** Media type of `body`; default `application/json`. */
  contentType?: string;
  /** Over the plan's response ceiling: the parameter to change, and how (default: the path). */
  tooLarge?: TooLarge;
}

/** Strong ETag over the exact bytes served (a one-shot hash: no Hash object per answer). */
export function strongEtag(body: Body): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
}

/**
 * Sends a cacheable JSON answer: 304 when `If-None-Match` names its ETag (not counted
 * against the rate limit), otherwise counts the request and sends 200.
 */
export async function sendCacheable(
  req: Request,
  res: Response,
  limiter: RateLimiter,
  payload: JsonPayload,
): Promise<void> {
  const ctx = contextOf(res);
  refuseOverCeiling(req, res, payload);
  const etag = payload.etag ?? strongEtag(payload.body);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', payload.cacheControl);
  res.setHeader('Vary', VARY);
  if (etagMatches(req.headers['if-none-match'], etag)) {
    if (ctx.rate !== undefined) setRateHeaders(res, ctx.rate);
    res.statusCode = 304;
    res.end();
    return;
  }
  await count(res, limiter);
  // Written with Node's own calls: express's send() would re-derive the type, test
  // freshness again and compute a length Node computes anyway for a single end().
  res.setHeader(
    'Content-Type',
    payload.contentType === undefined ? JSON_UTF8 : `${payload.contentType}; charset=utf-8`,
  );
  res.statusCode = 200;
  res.end(payload.body);
}

const JSON_UTF8 = 'application/json; charset=utf-8';

/** Refuses (response_too_large) a body over the ceiling of the caller's plan (kit policy); the problem handler counts the refusal as a request. */
function refuseOverCeiling(req: Request, res: Response, payload: JsonPayload): void {
  const principal = contextOf(res).principal;
  if (principal === undefined) return;
  assertWithinCeiling(principal, payload.body, () => payload.tooLarge ?? { field: req.path, hint: 'Ask for less.' });
}

/** What a refusal for size names: the parameter to change, and how. */
export interface TooLarge {
  field: string;
  hint: string;
}

/**
 * Refuses (response_too_large, naming the parameter to change) a body over the ceiling of
 * the principal's plan; `tooLarge` may be a function, asked only for a refusal.
 */
export function assertWithinCeiling(principal: Principal, body: Body, tooLarge: TooLarge | (() => TooLarge)): void {
  const ceiling = queryBudget(principal).maxResponseBytes;
  // A string of n UTF-16 units is at most 3n bytes: most answers are settled without counting.
  if (typeof body === 'string' && 3 * body.length <= ceiling) return;
  const size = byteSize(body);
  if (size <= ceiling) return;
  if (typeof tooLarge === 'function') tooLarge = tooLarge();
  throw new ResponseTooLargeError(
    `This answer would be ${megabytes(size)}; an answer to this key may hold ${megabytes(ceiling)}. ${tooLarge.hint}`,
    { field: tooLarge.field },
  );
}

/** The bytes a body sends. */
export function byteSize(body: Body): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

/** Counts the request against its bucket and writes the rate headers. */
export async function count(res: Response, limiter: RateLimiter): Promise<void> {
  const ctx = contextOf(res);
  if (ctx.bucket === undefined) return;
  const d = await limiter.consume(ctx.bucket.id, ctx.bucket.limit);
  setRateHeaders(res, d);
  if (!d.allowed) {
    throw new RateLimitedError(`Rate limit of ${d.limit} requests per minute exceeded.`, {
      retryAfter: Math.max(1, Math.ceil(d.resetAt - Date.now() / 1000)),
    });
  }
}

/** A JSON answer that is never cached (a key's own resources: webhooks, exports), counted against the rate budget. */
export async function sendUncached(res: Response, limiter: RateLimiter, status: number, view: unknown): Promise<void> {
  await count(res, limiter);
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(view);
}

/** Whether an `If-None-Match` header names `etag` (or is `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  // Strong comparison for the listed tags; a weak validator never matches a strong one.
  return header.split(',').some((t) => t.trim() === etag);
}
