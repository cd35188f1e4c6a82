import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SLOW_CLIENT_LIMITS } from '../../services/gateway/src/http/client-errors.js';
import { get, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

/**
 * Slow clients (slowloris): sockets that send their request head a header at a time hold a
 * socket only until the head deadline, are answered 408 and closed, and meanwhile cost
 * every other caller nothing.
 */
let stack: Stack;
let key: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  stack = await startStack();
  key = await stack.key();
}, scaled(60_000));
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await stack?.stop();
});

/** Opens a socket that sends a request line, then one header a second, never ending the head. */
function trickle(url: URL): { socket: Socket; closed: () => boolean; answer: () => string } {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let answer = '';
  let closed = false;
  socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  socket.write('GET /v1/meta/layers HTTP/1.1\r\nHost: localhost\r\n');
  const timer = setInterval(
    () => (socket.writable ? socket.write(`X-Slow: ${Date.now()}\r\n`) : clearInterval(timer)),
    1_000,
  );
  socket.on('close', () => clearInterval(timer));
  return { socket, closed: () => closed, answer: () => answer };
}

describe('slow clients', () => {
  it(
    'are answered 408 and closed at the head deadline, while other callers are served',
    async () => {
      const url = new URL(stack.url);
      const slow = Array.from({ length: 50 }, () => trickle(url));
      // While they trickle, a normal caller is answered.
      for (let i = 0; i < 5; i++) expect((await get(`${stack.url}/v1/meta/layers`, key)).status).toBe(200);
      expect(slow.every((s) => !s.closed())).toBe(true);
      // Every slow socket is closed within the deadline plus the check interval (and slack for a busy machine).
      await vi.waitFor(() => expect(slow.filter((s) => !s.closed())).toHaveLength(0), {
        timeout: SLOW_CLIENT_LIMITS.headersTimeout * 4,
        interval: 250,
      });
      for (const s of slow) expect(s.answer()).toMatch(/^HTTP\/1\.1 408/);
      expect((await get(`${stack.url}/v1/meta/layers`, key)).status).toBe(200);
    },
    scaled(90_000),
  );
});
