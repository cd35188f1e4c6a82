import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { attempt, RESPONSE_EXCERPT } from './deliver.js';
import { newSigningSecret, signatureHeaders } from './signing.js';
import { checkTarget } from './target-url.js';

/** Real receivers on loopback, one behaviour per path. */
let server: Server;
let base: string;
const secret = newSigningSecret();
const received: { path: string; verified: unknown; host: string | undefined }[] = [];

function receiver(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req
    .setEncoding('utf8')
    .on('data', (c) => (body += c))
    .on('end', () => {
      let verified: unknown;
      try {
        verified = new Webhook(secret).verify(body, req.headers as Record<string, string>);
      } catch (err) {
        verified = `refused: ${(err as Error).message}`;
      }
      received.push({ path: req.url!, verified, host: req.headers.host });
      if (req.url === '/ok') return void res.writeHead(204).end();
      if (req.url === '/fail') return void res.writeHead(500).end('boom');
      if (req.url === '/gone') return void res.writeHead(410).end();
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 200 && res.write(chunk)) sent++;
          if (sent < 200) res.once('drain', pump);
          else res.end();
        };
        return pump();
      }
      if (req.url === '/hang') return; // never answers
    });
}

beforeAll(async () => {
  server = createServer(receiver);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function send(path: string, timeoutMs?: number) {
  const target = await checkTarget(`${base}${path}`, 'test');
  const body = JSON.stringify({ id: 'evt_1', type: 'candidacy.updated' });
  return attempt(target, body, signatureHeaders([secret], 'msg_1', body), timeoutMs === undefined ? {} : { timeoutMs });
}

describe('one delivery attempt to a real receiver', () => {
  it('delivers a body the receiver verifies with the standardwebhooks package, to the pinned address, with the name as Host', async () => {
    const r = await send('/ok');
    expect(r).toMatchObject({ ok: true, status: 204 });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    const got = received.find((x) => x.path === '/ok')!;
    expect(got.verified).toEqual({ id: 'evt_1', type: 'candidacy.updated' });
    expect(got.host).toMatch(/^localhost:\d+$/);
  });

  it("reports a 500 and a 410 as failed attempts with their status and the answer's start", async () => {
    expect(await send('/fail')).toMatchObject({ ok: false, status: 500, excerpt: 'boom' });
    expect(await send('/gone')).toMatchObject({ ok: false, status: 410 });
  });

  it('does not follow a redirect', async () => {
    const before = received.filter((x) => x.path === '/ok').length;
    expect(await send('/redirect')).toMatchObject({ ok: false, status: 302, error: 'redirect' });
    expect(received.filter((x) => x.path === '/ok').length).toBe(before);
  });

  it('reads at most 64 KB of a huge answer and keeps 1 KB of it', async () => {
    const r = await send('/huge');
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(r.excerpt.length).toBe(RESPONSE_EXCERPT);
  });

  it('gives up on a receiver that never answers at the timeout', async () => {
    const r = await send('/hang', 300);
    expect(r).toMatchObject({ ok: false, status: 0, error: 'timeout' });
    expect(r.latencyMs).toBeGreaterThanOrEqual(290);
  });

  it('reports a refused connection without throwing', async () => {
    const target = await checkTarget('http://127.0.0.1:1/hook', 'test');
    expect(await attempt(target, '{}', signatureHeaders([secret], 'msg_2', '{}'))).toMatchObject({
      ok: false,
      status: 0,
      error: 'ECONNREFUSED',
    });
  });
});
