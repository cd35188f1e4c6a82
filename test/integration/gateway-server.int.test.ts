import { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '@civicgraph/gateway';
import { DENVER, get, startStack, type Stack } from '../harness/stack.js';

/**
 * The gateway's HTTP server builds each request and response with express's prototypes
 * (services/gateway/src/http/express-server.ts), so express's per-request
 * Object.setPrototypeOf changes nothing. Nothing over HTTP shows which prototypes a request
 * was born with, so this looks at the objects as the server hands them out, before the
 * revalidation front or express see them, on a gateway with the front and one without.
 */

let s: Stack;
let withoutFront: Gateway;

beforeAll(async () => {
  s = await startStack();
  withoutFront = await s.addGateway({ revalidationFront: false });
}, 60_000);
afterAll(() => s?.stop());

/** The prototypes of the next request the gateway's server builds, as built. */
function nextBorn(gateway: Gateway): Promise<{ request: object | null; response: object | null }> {
  return new Promise((resolve) => {
    gateway.server.prependOnceListener('request', (req: IncomingMessage, res: ServerResponse) =>
      resolve({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) }));
  });
}

/** True when `proto` is an express app's request (or response) prototype: it carries the app. */
function isAppPrototype(proto: object | null): boolean {
  return proto !== null && Object.prototype.hasOwnProperty.call(proto, 'app');
}

describe('the gateway’s HTTP server', () => {
  for (const [name, pick] of [['with the revalidation front', () => s.gateway], ['without it', () => withoutFront]] as const) {
    it(`builds requests with express’s prototypes, ${name}`, async () => {
      const gateway = pick();
      const born = nextBorn(gateway);
      const key = await s.key();
      const res = await get(`${gateway.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, key);
      expect(res.status).toBe(200);
      const { request, response } = await born;
      expect(request).not.toBe(IncomingMessage.prototype);
      expect(response).not.toBe(ServerResponse.prototype);
      expect(isAppPrototype(request)).toBe(true);
      expect(isAppPrototype(response)).toBe(true);
    });
  }
});
