import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError, UnauthenticatedError } from '@civicgraph/kit';
import { Environment, Plan, type CreateKeyRequest } from '@civicgraph/protos/civic/auth/v1/auth';
import { MemoryKeyStore } from '../store/memory-key-store.js';
import { AUTHENTICATION_FAILED, KeyService } from './key-service.js';
import { generateKey, hashKey } from './keys.js';
import { LATEST_VERSION } from './plans.js';

const request = (over: Partial<CreateKeyRequest> = {}): CreateKeyRequest => ({
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_EXPLORE,
  label: 'dashboard',
  pinnedVersion: '',
  ...over,
});

describe('KeyService', () => {
  let store: MemoryKeyStore;
  let now: Date;
  let service: KeyService;
  beforeEach(() => {
    store = new MemoryKeyStore();
    now = new Date('2026-11-02T10:00:00.000Z');
    service = new KeyService({ store, clock: () => now });
  });

  async function rejection(p: Promise<unknown>): Promise<Error> {
    return p.then(
      () => expect.fail('expected a rejection'),
      (err: Error) => err,
    );
  }

  it('issues a key whose record carries the resolved plan terms but not the key', async () => {
    const { key, record } = await service.create(request({ environment: Environment.ENVIRONMENT_LIVE, label: '  dashboard ' }));
    expect(key).toMatch(/^cg_live_[0-9A-Za-z]{40}$/);
    expect(record).toEqual({
      keyId: expect.stringMatching(/^key_[0-9A-Za-z]{16}$/),
      keyPrefix: `${key.slice(0, 12)}…`,
      label: 'dashboard',
      principal: {
        keyId: record.keyId,
        environment: Environment.ENVIRONMENT_LIVE,
        plan: Plan.PLAN_EXPLORE,
        entitlements: { contact: false, geography: true, states: [], tiers: [] },
        pinnedVersion: LATEST_VERSION,
        rateLimitPerMinute: 60,
      },
      createdAt: '2026-11-02T10:00:00.000Z',
      revokedAt: '',
    });
    expect(JSON.stringify(await store.list())).not.toContain(key.slice(8));
    expect(await store.findByHash(hashKey(key))).toEqual(record);
  });

  it('authenticates an issued key to its principal', async () => {
    const { key, record } = await service.create(
      request({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 12_000, entitlements: { contact: true, geography: false, states: ['TX'], tiers: [] } }),
    );
    expect(await service.authenticate(key)).toEqual({
      ...record.principal,
      rateLimitPerMinute: 12_000,
      entitlements: { contact: true, geography: false, states: ['tx'], tiers: [] },
    });
  });

  it('gives build keys the plan rate limit of 600 per minute', async () => {
    const { key } = await service.create(request({ plan: Plan.PLAN_BUILD }));
    expect((await service.authenticate(key)).rateLimitPerMinute).toBe(600);
  });

  it('refuses malformed, unknown and revoked keys with one indistinguishable error', async () => {
    const { key, record } = await service.create(request());
    await service.revoke(record.keyId);
    const presented = ['', 'Bearer nonsense', generateKey(Environment.ENVIRONMENT_TEST), key, `cg_live_${key.slice(8)}`];
    const errors = await Promise.all(presented.map((k) => rejection(service.authenticate(k))));
    for (const err of errors) {
      expect(err).toBeInstanceOf(UnauthenticatedError);
      expect(err.message).toBe(AUTHENTICATION_FAILED);
    }
  });

  it('stops authenticating a key once it is revoked', async () => {
    const { key, record } = await service.create(request());
    await expect(service.authenticate(key)).resolves.toMatchObject({ keyId: record.keyId });
    await service.revoke(record.keyId);
    await expect(service.authenticate(key)).rejects.toThrow(UnauthenticatedError);
  });

  it('revokes idempotently, keeping the first revocation instant', async () => {
    const { record } = await service.create(request());
    now = new Date('2026-11-03T00:00:00.000Z');
    expect((await service.revoke(record.keyId)).revokedAt).toBe('2026-11-03T00:00:00.000Z');
    now = new Date('2026-11-04T00:00:00.000Z');
    expect((await service.revoke(record.keyId)).revokedAt).toBe('2026-11-03T00:00:00.000Z');
  });

  it('answers NotFoundError for revoking an unknown key and InvalidParameterError for an empty id', async () => {
    await expect(service.revoke('key_0000000000000000')).rejects.toThrow(NotFoundError);
    expect(await rejection(service.revoke(''))).toMatchObject({ field: 'key_id' });
  });

  it.each([
    ['explore with contact', request({ entitlements: { contact: true, geography: true, states: [], tiers: [] } }), 'entitlements'],
    ['enterprise without a limit', request({ plan: Plan.PLAN_ENTERPRISE }), 'rate_limit_per_minute'],
    ['build with a limit', request({ plan: Plan.PLAN_BUILD, rateLimitPerMinute: 10 }), 'rate_limit_per_minute'],
    ['an unknown state', request({ entitlements: { contact: false, geography: true, states: ['qq'], tiers: [] } }), 'states'],
    ['an unknown tier', request({ entitlements: { contact: false, geography: true, states: [], tiers: ['city'] } }), 'tiers'],
    ['an unknown version', request({ pinnedVersion: '1999-01-01' }), 'pinned_version'],
    ['no environment', request({ environment: Environment.ENVIRONMENT_UNSPECIFIED }), 'environment'],
    ['no plan', request({ plan: Plan.PLAN_UNSPECIFIED }), 'plan'],
    ['an overlong label', request({ label: 'x'.repeat(201) }), 'label'],
  ])('refuses to issue a key with %s, naming %s, and stores nothing', async (_, req, field) => {
    const err = await rejection(service.create(req));
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err).toMatchObject({ field });
    expect(await service.list()).toEqual([]);
  });

  it('lists issued keys oldest first, revoked ones included', async () => {
    const a = await service.create(request({ label: 'a' }));
    now = new Date('2026-11-02T11:00:00.000Z');
    const b = await service.create(request({ label: 'b' }));
    await service.revoke(a.record.keyId);
    expect((await service.list()).map((r) => [r.label, r.revokedAt !== ''])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(b.record.createdAt).toBe('2026-11-02T11:00:00.000Z');
  });
});
