import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { get, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

/** The admin sources API, `/admin/v1/sources`, against a real ingest service behind a real gateway. */

const ADMIN = 'admin-token-for-source-tests-0123456789ab';
const SOURCE = 'co-sldl-2021';
let s: Stack;

beforeAll(async () => {
  s = await startStack({ adminToken: ADMIN, ingest: { sources: ['ocd-division-ids', SOURCE] } });
}, scaled(60_000));
afterAll(() => s?.stop());

async function admin(method: string, path: string, raw?: string, token = ADMIN) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(raw === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(raw === undefined ? {} : { body: raw }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any) };
}

describe('admin sources API', () => {
  it("lists the deployment's sources with their registry entry, never fetched yet", async () => {
    const res = await admin('GET', '/admin/v1/sources');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual(['ocd-division-ids', SOURCE]);
    expect(res.body.data[1]).toMatchObject({
      id: SOURCE,
      importer: 'boundaries',
      status: 'never',
      last_fetch_at: null,
      version: null,
      rows: null,
      error: null,
      failures: 0,
      urls: [expect.stringMatching(/^https:\/\/raw\.githubusercontent\.com\/OpenWaterFoundation\//)],
      refresh_hours: 720,
    });
  });

  it(
    'queues a run (202), whose progress and outcome the runs and the source then show',
    async () => {
      const queued = await admin('POST', '/admin/v1/sources/runs', JSON.stringify({ sources: [SOURCE] }));
      expect(queued.status).toBe(202);
      expect(queued.body).toEqual({ queued: [SOURCE] });
      await vi.waitFor(
        async () => {
          const runs = await admin('GET', '/admin/v1/sources/runs?limit=5');
          expect(runs.body.data[0]).toMatchObject({
            source: SOURCE,
            status: 'changed',
            rows: { created: 65, rejected: 0 },
            error: null,
          });
        },
        { timeout: scaled(120_000), interval: 250 },
      );
      const source = (await admin('GET', '/admin/v1/sources')).body.data[1];
      expect(source).toMatchObject({
        status: 'ok',
        last_fetch_at: expect.stringMatching(/^\d{4}-/),
        version: expect.stringMatching(/^[0-9a-f]{16}$/),
        rows: { created: 65 },
      });
      // Its districts serve: the geo service picks the import up from the boundary store.
      const key = await s.key();
      await vi.waitFor(
        async () => {
          const res = await get(`${s.url}/v1/districts_by_point?lat=39.7392&lng=-104.9903&date=2024-11-05`, key);
          expect(res.body.data.map((r: { level: string }) => r.level)).toContain('state-legislative-lower');
        },
        { timeout: scaled(60_000), interval: 250 },
      );
    },
    scaled(180_000),
  );

  it('refuses bad requests with problem+json naming the field', async () => {
    const cases: [string, string, string | undefined, string][] = [
      ['POST', '/admin/v1/sources/runs', JSON.stringify({ sources: ['no-such-source'] }), 'sources'],
      ['POST', '/admin/v1/sources/runs', JSON.stringify({ sources: 'co-sldl-2021' }), 'sources'],
      ['POST', '/admin/v1/sources/runs', JSON.stringify({ sources: ['../etc'] }), 'sources'],
      ['POST', '/admin/v1/sources/runs', '{"sources": [', 'body'],
      ['GET', '/admin/v1/sources/runs?limit=0', undefined, 'limit'],
      ['GET', '/admin/v1/sources/runs?limit=501', undefined, 'limit'],
      ['GET', '/admin/v1/sources/runs?limit=ten', undefined, 'limit'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await admin(method, path, body);
      expect(res.status, `${method} ${path} ${body}`).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(res.body), `${method} ${path} ${body}`).toContain(field);
    }
  });

  it('answers only the admin token: an API key or a wrong token is 401', async () => {
    const key = await s.key();
    expect((await get(`${s.url}/admin/v1/sources`, key)).status).toBe(401);
    expect((await admin('GET', '/admin/v1/sources', undefined, `${ADMIN}x`)).status).toBe(401);
    expect((await admin('POST', '/admin/v1/sources/runs', '{}', 'nope')).status).toBe(401);
  });
});

describe('a deployment without an ingest service', () => {
  it('answers 404, saying it runs no ingest service', async () => {
    const plain = await startStack({ adminToken: ADMIN });
    try {
      const res = await fetch(`${plain.url}/admin/v1/sources`, { headers: { Authorization: `Bearer ${ADMIN}` } });
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toMatch(/no ingest service.*INGEST_ADDR/);
    } finally {
      await plain.stop();
    }
  });
});
