import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server } from 'node:http';
import type { Express } from 'express';

/**
 * An HTTP server for an express app whose requests and responses are constructed with the
 * app's own prototypes (`app.request`, `app.response`).
 *
 * Express gives every request those prototypes in `app.handle`, with `Object.setPrototypeOf`
 * on the request and on the response. On V8 that one call per request costs more than the
 * rest of express: the objects it touches outlive their request into the old generation,
 * every young collection copies them and every few seconds a full collection clears them.
 * Measured on this project's 2-core machine with a one-route app and `--trace-gc`: stock,
 * 7,600 req/s, young collections of 12 ms each promoting 5 MB; served by this, 26,800
 * req/s (as fast as Node without express), 0.5 ms collections promoting nothing.
 * `npm run bench:geo` runs both beside the gateway (its HTTP table).
 *
 * With the prototypes already in place, express's call finds them there and changes
 * nothing: `Object.setPrototypeOf(o, p)` with `p` already `o`'s prototype is a no-op.
 * Nothing else differs: the classes here are express's prototypes, and `app.request` and
 * `app.response` are replaced by them (same chain, same `app` property), so anything express
 * or a route looks up on a request finds what it found before.
 *
 * `listener` is what the server calls (the app itself, or a front that hands requests on to it).
 */
export function expressServer(app: Express, listener: RequestListener = app): Server {
  const { Request, Response } = expressClasses(app);
  return createServer({ IncomingMessage: Request, ServerResponse: Response, ...SLOW_CLIENT_LIMITS }, listener);
}

/**
 * A client that trickles its request (slowloris) holds a socket only this long: its head
 * must arrive within 10 s and the whole request within 30 s, checked every second; it is
 * then answered 408 and closed. (Node's defaults: 60 s and 300 s, checked every 30 s.)
 */
export const SLOW_CLIENT_LIMITS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 } as const;

/**
 * Request and response classes whose prototypes are the app's: each keeps express's chain
 * (`app.request` → express's request → IncomingMessage.prototype) and `app.request`'s own
 * properties (`app`), and becomes `app.request` (`app.response`).
 */
function expressClasses(app: Express): { Request: typeof IncomingMessage; Response: typeof ServerResponse } {
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  const appProtos = app as unknown as { request: object; response: object };
  adopt(Request.prototype, appProtos.request);
  adopt(Response.prototype, appProtos.response);
  appProtos.request = Request.prototype;
  appProtos.response = Response.prototype;
  return { Request, Response: Response as typeof ServerResponse };
}

/** Makes `target` stand in for `proto`: the same prototype and the same own properties. */
function adopt(target: object, proto: object): void {
  Object.setPrototypeOf(target, Object.getPrototypeOf(proto));
  Object.defineProperties(target, Object.getOwnPropertyDescriptors(proto));
}
