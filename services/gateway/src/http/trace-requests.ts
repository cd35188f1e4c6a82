import type { Request, RequestHandler } from 'express';
import { contextFrom, SpanKind, SpanStatusCode, tracer, withSpan } from '@civicgraph/kit';

/**
 * One SERVER span per HTTP request (tracing on), continuing the trace of an incoming W3C
 * `traceparent` header, else starting one; current for everything the request does, so its
 * upstream calls are its children. Named and labelled when the answer is sent, by route
 * template (`GET /v1/contests/:slug`: a name per slug would make every request its own
 * operation), with the status; a 5xx marks it an error. Its trace id goes in the access log.
 */
export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    const t = tracer();
    if (t === undefined) return next();
    const parent = contextFrom(req.headers);
    const span = t.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      parent,
    );
    res.locals['traceId'] = span.spanContext().traceId;
    // `close` follows `finish`, and comes alone when the client went away first.
    res.once('close', () => {
      const route = routeOf(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    withSpan(parent, span, next);
  };
}

/** The route template a request matched (`/v1/contests/:slug`, never the path itself), or `unmatched`. */
export function routeOf(req: Request): string {
  return req.route === undefined ? 'unmatched' : `${req.baseUrl ?? ''}${String(req.route.path)}`;
}
