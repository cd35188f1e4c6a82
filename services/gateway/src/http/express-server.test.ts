import { once } from 'node:events';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressServer } from './express-server.js';

/** What a route saw of its request and response. */
interface Seen {
  bornRequest?: object | null;
  bornResponse?: object | null;
  routeRequest?: object | null;
  routeResponse?: object | null;
  requestIsMessage?: boolean;
  responseIsServerResponse?: boolean;
  requestApp?: unknown;
  responseApp?: unknown;
}

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** An app with one route reporting what it saw, behind `expressServer`, on a free port. */
async function serve(): Promise<{ app: express.Express; seen: Seen; url: string }> {
  const app = express();
  const seen: Seen = {};
  app.get('/echo', (req, res) => {
    seen.routeRequest = Object.getPrototypeOf(req);
    seen.routeResponse = Object.getPrototypeOf(res);
    seen.requestIsMessage = req instanceof IncomingMessage;
    seen.responseIsServerResponse = res instanceof ServerResponse;
    seen.requestApp = req.app;
    seen.responseApp = res.app;
    res.status(201).json({ q: req.query['q'], path: req.path });
  });
  // The listener sees the objects as the server built them, before express's app.handle.
  server = expressServer(app, (req, res) => {
    seen.bornRequest = Object.getPrototypeOf(req);
    seen.bornResponse = Object.getPrototypeOf(res);
    app(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { app, seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('expressServer', () => {
  it('builds requests and responses with the app’s prototypes, so express changes none', async () => {
    const { app, seen, url } = await serve();
    const res = await fetch(`${url}/echo?q=denver`);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ q: 'denver', path: '/echo' });
    expect(seen.bornRequest).toBe(app.request);
    expect(seen.bornResponse).toBe(app.response);
    expect(seen.routeRequest).toBe(seen.bornRequest);
    expect(seen.routeResponse).toBe(seen.bornResponse);
  });

  it('keeps express’s chain: Node’s classes, express’s methods, the app', async () => {
    const { app, seen, url } = await serve();
    await (await fetch(`${url}/echo`)).text();
    expect(seen.requestIsMessage).toBe(true);
    expect(seen.responseIsServerResponse).toBe(true);
    expect(seen.requestApp).toBe(app);
    expect(seen.responseApp).toBe(app);
    expect(typeof (app.request as unknown as { get: unknown }).get).toBe('function');
    expect(typeof (app.response as unknown as { json: unknown }).json).toBe('function');
  });

  it('leaves express’s own answers alone (its 404 for an unknown path)', async () => {
    const { url } = await serve();
    const res = await fetch(`${url}/nowhere`);
    expect(res.status).toBe(404);
    await res.text();
  });
});
