import type { ErrorRequestHandler, Request, Response } from 'express';
import { asCivicError, InvalidParameterError, NotFoundError, type Logger, type RateLimiter } from '@civicgraph/kit';
import { sendProblem } from './problem.js';
import { contextOf } from './request-context.js';
import { setRateHeaders } from './rate-headers.js';

/**
 * The last middleware: maps anything thrown to problem+json. Error responses count
 * against the rate limit like any other answer; a 429 only reports the bucket.
 */
export function problemHandler(limiter: RateLimiter, log: Logger): ErrorRequestHandler {
  return (raw: unknown, req: Request, res: Response, _next) => {
    void answer(raw, req, res, limiter, log);
  };
}

async function answer(raw: unknown, req: Request, res: Response, limiter: RateLimiter, log: Logger): Promise<void> {
  const err = asCivicError(bodyParserError(raw) ?? raw);
  const ctx = contextOf(res);
  if (err.status >= 500) log.error({ err: raw, requestId: ctx.requestId, path: req.path }, 'request failed');
  if (res.headersSent) return void res.end();
  try {
    if (ctx.bucket !== undefined) {
      const d =
        err.type === 'rate_limited'
          ? await limiter.peek(ctx.bucket.id, ctx.bucket.limit)
          : await limiter.consume(ctx.bucket.id, ctx.bucket.limit);
      setRateHeaders(res, err.type === 'rate_limited' ? { ...d, allowed: false } : d);
    }
  } catch (limitErr) {
    log.error({ err: limitErr }, 'rate limiter failed while answering an error');
  }
  sendProblem(res, err, ctx.requestId);
}

/**
 * express.json() failures arrive as plain errors with a `type` like `entity.parse.failed`;
 * a malformed percent-escape in a path no endpoint template covers as a URIError.
 */
function bodyParserError(raw: unknown): InvalidParameterError | undefined {
  if (raw instanceof URIError)
    return new InvalidParameterError('path', 'The path holds a malformed percent-escape.', { cause: raw });
  const e = raw as { type?: unknown; status?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.type !== 'string' || !e.type.startsWith('entity.'))
    return undefined;
  if (e.type === 'entity.too.large')
    return new InvalidParameterError('body', 'The request body is too large.', { cause: raw });
  return new InvalidParameterError('body', 'The request body is not valid JSON.', { cause: raw });
}

/** 404 for paths no route serves, as problem+json. */
export function notFound() {
  return (req: Request, _res: Response, next: (err: unknown) => void) => {
    next(new NotFoundError(`No endpoint ${req.method} ${req.path}.`));
  };
}
