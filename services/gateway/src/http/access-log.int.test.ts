import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@civicgraph/kit';
import { requestContext } from './edge.js';

const lines: Record<string, unknown>[] = [];
const log = createLogger('gateway', 'info', { write: (s: string) => void lines.push(JSON.parse(s)) });
let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(requestContext(log));
  app.get('/v1/ballot', (_req, res) => {
    res.locals['civic'].principal = { keyId: 'key_abc' };
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('the access log', () => {
  it('writes one line per request: id, method, path without the query, status, time, key id', async () => {
    const ok = await fetch(`${url}/v1/ballot?lat=39.7&lng=-104.9&api_key=cg_test_secret`);
    const missing = await fetch(`${url}/nowhere`);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      req_id: ok.headers.get('civic-request-id'),
      method: 'GET',
      path: '/v1/ballot',
      status: 200,
      key_id: 'key_abc',
    });
    expect(typeof lines[0]!['ms']).toBe('number');
    expect(lines[1]).toMatchObject({ path: '/nowhere', status: 404, req_id: missing.headers.get('civic-request-id') });
    expect(lines[1]).not.toHaveProperty('key_id');
    expect(JSON.stringify(lines)).not.toContain('lat=');
  });
});
