import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError, UnauthenticatedError } from '@civicgraph/kit';
import { Environment, Plan, type CreateKeyRequest } from '@civicgraph/protos/civic/auth/v1/auth';
import { MemoryKeyStore } from '../store/memory-key-store.js';
import { AUTHENTICATION_FAILED, KeyService } from './key-service.js';
import { generateKey } from './keys.js';
import { KeyHasher } from './key-hasher.js';
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
  let announced: [string, string][];
  const hasher = new KeyHasher(Buffer.alloc(32, 3));
  beforeEach(() => {
    store = new MemoryKeyStore();
    now = new Date('2026-11-02T10:00:00.000Z');
    announced = [];
    service = new KeyService({
      store,
      hasher,
      clock: () => now,
      announce: async (change, r) => void announced.push([change, r.keyId]),
    });
  });

  async function rejection(p: Promise<unknown>): Promise<Error> {
    return p.then(
      () => expect.fail('expected a rejection'),
      (err: Error) => err,
    );
  }

  it('issues a key whose record carries the resolved plan terms but not the key', async () => {
    const { key, record } = await service.create(
      request({ environment: Environment.ENVIRONMENT_LIVE, label: '  dashboard ' }),
    );
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
      rotatedAt: '',
      previousKeyPrefix: '',
      previousKeyExpiresAt: '',
    });
    expect(JSON.stringify(await store.list())).not.toContain(key.slice(8));
    const found = await store.findByLookup(hasher.lookup(key));
    expect(found?.record).toEqual(record);
    expect(JSON.stringify(found?.secret)).not.toContain(key.slice(8));
  });

  it('authenticates an issued key to its principal', async () => {
    const { key, record } = await service.create(
      request({
        plan: Plan.PLAN_ENTERPRISE,
        rateLimitPerMinute: 12_000,
        entitlements: { contact: true, geography: false, states: ['TX'], tiers: [] },
      }),
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
    const presented = [
      '',
      'Bearer nonsense',
      generateKey(Environment.ENVIRONMENT_TEST),
      key,
      `cg_live_${key.slice(8)}`,
    ];
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
    [
      'explore with contact',
      request({ entitlements: { contact: true, geography: true, states: [], tiers: [] } }),
      'entitlements',
    ],
    ['enterprise without a limit', request({ plan: Plan.PLAN_ENTERPRISE }), 'rate_limit_per_minute'],
    ['build with a limit', request({ plan: Plan.PLAN_BUILD, rateLimitPerMinute: 10 }), 'rate_limit_per_minute'],
    [
      'an unknown state',
      request({ entitlements: { contact: false, geography: true, states: ['qq'], tiers: [] } }),
      'states',
    ],
    [
      'an unknown tier',
      request({ entitlements: { contact: false, geography: true, states: [], tiers: ['city'] } }),
      'tiers',
    ],
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

  it('announces revocations', async () => {
    const { record } = await service.create(request());
    await service.revoke(record.keyId);
    expect(announced).toEqual([['revoked', record.keyId]]);
  });

  it('refuses a key whose stored verifier does not match, even when its lookup digest is found', async () => {
    const { key, record } = await service.create(request());
    const found = await store.findByLookup(hasher.lookup(key));
    // A store that returned a record for the wrong secret (say, a tampered index) still does not authenticate.
    const forged = new KeyService({
      store: {
        ...store,
        findByLookup: async () => ({ record, secret: { ...found!.secret, verifier: '00'.repeat(32) } }),
      } as never,
      hasher,
    });
    await expect(forged.authenticate(key)).rejects.toThrow(AUTHENTICATION_FAILED);
  });

  it('looks a key up by its peppered digest only, and compares once, however much of a guess is right', async () => {
    const { key } = await service.create(request());
    const asked: string[] = [];
    const verified: (string | undefined)[] = [];
    const spyStore = {
      ...store,
      findByLookup: async (lookup: string) => (asked.push(lookup), store.findByLookup(lookup)),
    };
    const spyHasher = Object.assign(Object.create(hasher) as KeyHasher, {
      verify: (k: string, s: Parameters<KeyHasher['verify']>[1]) => (verified.push(s?.verifier), hasher.verify(k, s)),
    });
    const spied = new KeyService({ store: spyStore as never, hasher: spyHasher });
    const nearMiss = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    const farMiss = `cg_test_${key[8] === 'a' ? 'b' : 'a'}${key.slice(9)}`;
    for (const guess of [nearMiss, farMiss])
      await expect(spied.authenticate(guess)).rejects.toThrow(AUTHENTICATION_FAILED);
    // One indexed read of an HMAC per guess, never the key or a prefix of it; one verification each.
    expect(asked).toEqual([hasher.lookup(nearMiss), hasher.lookup(farMiss)]);
    for (const a of asked) expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(verified).toEqual([undefined, undefined]);
  });

  describe('rotation', () => {
    it('issues a new secret for the same key id and terms; the old one works until the grace ends', async () => {
      const { key: oldKey, record } = await service.create(request({ plan: Plan.PLAN_BUILD }));
      const rotated = await service.rotate({ keyId: record.keyId, graceSeconds: 3600 });
      expect(rotated.key).not.toBe(oldKey);
      expect(rotated.record).toMatchObject({
        keyId: record.keyId,
        principal: record.principal,
        rotatedAt: now.toISOString(),
        previousKeyPrefix: record.keyPrefix,
        previousKeyExpiresAt: '2026-11-02T11:00:00.000Z',
      });
      expect(announced).toEqual([['rotated', record.keyId]]);
      expect((await service.authenticate(oldKey)).keyId).toBe(record.keyId);
      expect((await service.authenticate(rotated.key)).keyId).toBe(record.keyId);
      now = new Date('2026-11-02T11:00:00.000Z');
      await expect(service.authenticate(oldKey)).rejects.toThrow(AUTHENTICATION_FAILED);
      expect((await service.authenticate(rotated.key)).keyId).toBe(record.keyId);
    });

    it('defaults the grace period to a day and allows none', async () => {
      const a = await service.create(request());
      expect((await service.rotate({ keyId: a.record.keyId })).record.previousKeyExpiresAt).toBe(
        '2026-11-03T10:00:00.000Z',
      );
      const b = await service.create(request());
      await service.rotate({ keyId: b.record.keyId, graceSeconds: 0 });
      await expect(service.authenticate(b.key)).rejects.toThrow(AUTHENTICATION_FAILED);
    });

    it('refuses a bad grace period, an unknown key and a revoked key, naming the field', async () => {
      const { record } = await service.create(request());
      expect(await rejection(service.rotate({ keyId: record.keyId, graceSeconds: 604_801 }))).toMatchObject({
        field: 'grace_seconds',
      });
      expect(await rejection(service.rotate({ keyId: record.keyId, graceSeconds: -1 }))).toMatchObject({
        field: 'grace_seconds',
      });
      expect(await rejection(service.rotate({ keyId: 'key_0000000000000000' }))).toBeInstanceOf(NotFoundError);
      await service.revoke(record.keyId);
      expect(await rejection(service.rotate({ keyId: record.keyId }))).toMatchObject({ field: 'key_id' });
    });
  });

  describe('listing pages', () => {
    it('pages oldest first with starting_after, and refuses bad limits and unknown cursors', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        now = new Date(Date.UTC(2026, 10, 2, 10, i));
        ids.push((await service.create(request({ label: String(i) }))).record.keyId);
      }
      const first = await service.page({ limit: 2, startingAfter: '' });
      expect(first.keys.map((k) => k.keyId)).toEqual(ids.slice(0, 2));
      expect(first.hasMore).toBe(true);
      const last = await service.page({ limit: 2, startingAfter: ids[3]! });
      expect(last).toMatchObject({ keys: [{ keyId: ids[4] }], hasMore: false });
      expect((await service.page({ limit: 0, startingAfter: '' })).keys).toHaveLength(5);
      expect(await rejection(service.page({ limit: 201, startingAfter: '' }))).toMatchObject({ field: 'limit' });
      expect(await rejection(service.page({ limit: 10, startingAfter: 'key_nope' }))).toMatchObject({
        field: 'starting_after',
      });
    });
  });
});
