import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

/** The admin key API, `/admin/v1/keys`, against the real auth service behind a real gateway. */

const ADMIN = 'admin-token-for-tests-0123456789abcdef';
let s: Stack;

beforeAll(async () => {
  s = await startStack({ adminToken: ADMIN, authCacheMs: 60_000 });
}, scaled(60_000));
afterAll(() => s?.stop());

async function admin(method: string, path: string, body?: unknown, token = ADMIN, raw?: string) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined && raw === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any) };
}

const meta = (key: string) => get(`${s.url}/v1/meta/layers`, key);

describe('admin key API', () => {
  it('creates a key, shown once; show and list never carry it', async () => {
    const created = await admin('POST', '/admin/v1/keys', {
      environment: 'test',
      plan: 'build',
      label: 'newsroom',
      entitlements: { contact: true, states: ['CO'], tiers: ['federal'] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({
      object: 'api_key',
      key: expect.stringMatching(/^cg_test_[0-9A-Za-z]{40}$/),
      id: expect.stringMatching(/^key_/),
      label: 'newsroom',
      environment: 'test',
      plan: 'build',
      entitlements: { contact: true, geography: true, states: ['co'], tiers: ['federal'] },
      rate_limit_per_minute: 600,
      revoked_at: null,
      previous_key: null,
    });
    expect((await meta(created.body.key)).status).toBe(200);
    const shown = await admin('GET', `/admin/v1/keys/${created.body.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.key).toBeUndefined();
    expect(JSON.stringify(shown.body)).not.toContain(created.body.key.slice(12));
    expect(shown.body.key_prefix).toBe(`${created.body.key.slice(0, 12)}…`);
    const listed = await admin('GET', '/admin/v1/keys?limit=200');
    expect(listed.body.data.map((k: any) => k.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key.slice(12));
  });

  it('pages the list with limit and starting_after', async () => {
    for (let i = 0; i < 3; i++)
      await admin('POST', '/admin/v1/keys', { environment: 'test', plan: 'explore', label: `page-${i}` });
    const all = (await admin('GET', '/admin/v1/keys?limit=200')).body.data.map((k: any) => k.id);
    const first = await admin('GET', '/admin/v1/keys?limit=2');
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    const second = await admin('GET', `/admin/v1/keys?limit=2&starting_after=${first.body.data[1].id}`);
    expect([...first.body.data, ...second.body.data].map((k: any) => k.id)).toEqual(all.slice(0, 4));
  });

  it('revokes a key: refused at once by a gateway that had it cached for a minute', async () => {
    const { body } = await admin('POST', '/admin/v1/keys', { environment: 'test', plan: 'explore' });
    expect((await meta(body.key)).status).toBe(200);
    const revoked = await admin('POST', `/admin/v1/keys/${body.id}/revoke`);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await meta(body.key);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
  });

  it('rotates a key: the new secret works, the old one for its grace period only', async () => {
    const { body } = await admin('POST', '/admin/v1/keys', { environment: 'test', plan: 'build', label: 'rotating' });
    const graced = await admin('POST', `/admin/v1/keys/${body.id}/rotate`, { grace_seconds: 3600 });
    expect(graced.status).toBe(200);
    expect(graced.body).toMatchObject({
      id: body.id,
      key: expect.stringMatching(/^cg_test_/),
      previous_key: { key_prefix: body.key_prefix, expires_at: expect.any(String) },
    });
    expect(graced.body.key).not.toBe(body.key);
    expect((await meta(body.key)).status).toBe(200);
    expect((await meta(graced.body.key)).status).toBe(200);
    // No grace: the secret in use until now stops at once, everywhere.
    const now = await admin('POST', `/admin/v1/keys/${body.id}/rotate`, { grace_seconds: 0 });
    expect((await meta(graced.body.key)).status).toBe(401);
    expect((await meta(now.body.key)).status).toBe(200);
    expect((await meta(now.body.key)).headers.get('civic-ratelimit-limit')).toBe('600');
  });

  it('refuses two Authorization headers, even when one carries the admin token', async () => {
    const url = new URL('/admin/v1/keys', s.url);
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'GET',
          headers: { Authorization: [`Bearer ${ADMIN}`, 'Bearer other'] },
        },
        (r) => {
          let text = '';
          r.setEncoding('utf8')
            .on('data', (c) => (text += c))
            .on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject).end();
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
  });

  it('refuses requests without the admin token, or with an API key, as 401', async () => {
    const key = await s.key();
    for (const token of ['wrong-token', key, '']) {
      const res = await admin('GET', '/admin/v1/keys', undefined, token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ type: 'unauthenticated', field: 'Authorization' });
    }
  });

  it.each([
    [
      'a contact add-on on explore',
      { environment: 'test', plan: 'explore', entitlements: { contact: true } },
      'entitlements',
    ],
    ['an unknown plan', { environment: 'test', plan: 'free' }, 'plan'],
    ['no environment', { plan: 'build' }, 'environment'],
    ['an unknown field', { environment: 'test', plan: 'build', admin: true }, 'admin'],
    [
      'an unknown entitlement',
      { environment: 'test', plan: 'build', entitlements: { everything: true } },
      'entitlements.everything',
    ],
    [
      'a string for a boolean',
      { environment: 'test', plan: 'build', entitlements: { contact: 'yes' } },
      'entitlements.contact',
    ],
    ['an unknown state', { environment: 'test', plan: 'build', entitlements: { states: ['zz'] } }, 'states'],
    ['a limit on build', { environment: 'test', plan: 'build', rate_limit_per_minute: 5 }, 'rate_limit_per_minute'],
    ['enterprise without a limit', { environment: 'live', plan: 'enterprise' }, 'rate_limit_per_minute'],
    [
      'a limit beyond int32',
      { environment: 'live', plan: 'enterprise', rate_limit_per_minute: 2 ** 31 },
      'rate_limit_per_minute',
    ],
    [
      'a limit of 1e300',
      { environment: 'live', plan: 'enterprise', rate_limit_per_minute: 1e300 },
      'rate_limit_per_minute',
    ],
    ['an array body', [1, 2], 'body'],
  ])('refuses to create a key with %s, naming %s', async (_, body, field) => {
    const before = (await admin('GET', '/admin/v1/keys?limit=200')).body.data.length;
    const res = await admin('POST', '/admin/v1/keys', body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'invalid_parameter', field });
    expect((await admin('GET', '/admin/v1/keys?limit=200')).body.data.length).toBe(before);
  });

  it('refuses malformed JSON, a 1 MB body, bad ids, unknown ids and bad grace periods with problems', async () => {
    expect((await admin('POST', '/admin/v1/keys', undefined, ADMIN, '{"plan":')).body).toMatchObject({
      type: 'invalid_parameter',
      field: 'body',
    });
    const huge = await admin(
      'POST',
      '/admin/v1/keys',
      undefined,
      ADMIN,
      JSON.stringify({ label: 'x'.repeat(1 << 20) }),
    );
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ type: 'invalid_parameter', field: 'body' });
    expect((await admin('GET', '/admin/v1/keys/nope')).body).toMatchObject({ type: 'invalid_parameter', field: 'id' });
    const unknown = await admin('GET', '/admin/v1/keys/key_0000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ type: 'not_found' });
    const { body } = await admin('POST', '/admin/v1/keys', { environment: 'test', plan: 'build' });
    for (const grace of [-1, 604_801, 1.5, '60', 2 ** 31, 2 ** 53]) {
      const res = await admin('POST', `/admin/v1/keys/${body.id}/rotate`, { grace_seconds: grace });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('grace_seconds');
    }
    expect((await admin('GET', '/admin/v1/keys?limit=201')).body.field).toBe('limit');
  });
});

describe('admin API without a token configured', () => {
  it('does not exist', async () => {
    const bare = await startStack();
    try {
      const res = await fetch(`${bare.url}/admin/v1/keys`, { headers: { Authorization: `Bearer ${ADMIN}` } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).type).toBe('not_found');
    } finally {
      await bare.stop();
    }
  });
});
