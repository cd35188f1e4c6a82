import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { probeArango, resolveArangoTestTarget } from './arango-test-server.js';
import { ARANGO_RUN_HINT, arangoUrlFrom, planArangoTests } from './arango-test-target.js';

describe('planArangoTests', () => {
  it('uses ARANGO_URL when the server there answers', () => {
    expect(planArangoTests({ url: 'http://db:8529', reachable: true, dockerAvailable: false })).toEqual({
      action: 'use-url',
      url: 'http://db:8529',
    });
  });

  it('fails when ARANGO_URL is set but nothing answers, naming the URL and the reason, even with Docker present', () => {
    for (const dockerAvailable of [false, true]) {
      const plan = planArangoTests({
        url: 'http://db:8529',
        reachable: false,
        unreachableReason: 'ECONNREFUSED',
        dockerAvailable,
      });
      expect(plan.action).toBe('fail');
      expect(plan).toMatchObject({ message: expect.stringContaining('http://db:8529') });
      expect(plan).toMatchObject({ message: expect.stringContaining('ECONNREFUSED') });
    }
  });

  it('starts arangodb:3.12 with testcontainers when ARANGO_URL is unset and a Docker engine answers', () => {
    expect(planArangoTests({ url: undefined, reachable: false, dockerAvailable: true })).toEqual({
      action: 'start-container',
      image: 'arangodb:3.12',
    });
  });

  it('skips, saying how to run the suite, when there is neither ARANGO_URL nor Docker', () => {
    const plan = planArangoTests({ url: undefined, reachable: false, dockerAvailable: false });
    expect(plan.action).toBe('skip');
    expect(plan).toMatchObject({ message: expect.stringContaining(ARANGO_RUN_HINT) });
    expect(plan).toMatchObject({ message: expect.stringContaining('docker run') });
  });

  it('reads a blank ARANGO_URL as unset', () => {
    expect(arangoUrlFrom({ ARANGO_URL: '  ' })).toBeUndefined();
    expect(arangoUrlFrom({})).toBeUndefined();
    expect(arangoUrlFrom({ ARANGO_URL: ' http://db:8529 ' })).toBe('http://db:8529');
  });
});

describe('resolveArangoTestTarget', () => {
  it('skips without ARANGO_URL when no Docker engine answers, even with CIVIC_REQUIRE_SERVICES=1', async () => {
    const target = await resolveArangoTestTarget(
      { CIVIC_REQUIRE_SERVICES: '1' },
      { dockerAvailable: async () => false },
    );
    expect(target).toMatchObject({ kind: 'skip', message: expect.stringContaining(ARANGO_RUN_HINT) });
  });

  it('fails when ARANGO_URL points where nothing listens', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const target = await resolveArangoTestTarget({ ARANGO_URL: url }, { dockerAvailable: async () => true });
    expect(target).toMatchObject({ kind: 'fail', message: expect.stringContaining(url) });
  });
});

describe('probeArango', () => {
  it('sends the credentials and reports a 401 as a credentials problem', async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res
        .writeHead(
          req.url === '/_api/version' && req.headers.authorization === `Basic ${btoa('root:secret')}` ? 200 : 401,
        )
        .end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect(await probeArango(url, 'root', 'secret')).toEqual({ ok: true });
      expect(await probeArango(url, 'root', 'wrong')).toEqual({
        ok: false,
        reason: expect.stringContaining('ARANGO_PASSWORD'),
      });
      expect(seen).toEqual([`Basic ${btoa('root:secret')}`, `Basic ${btoa('root:wrong')}`]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** A loopback port nothing listens on: bound by the OS, then released. */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createTcpServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
