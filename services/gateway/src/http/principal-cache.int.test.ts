import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { startAuthService, type AuthService } from '@civicgraph/auth';
import {
  createLogger,
  Lifecycle,
  MemoryEventBus,
  UnauthenticatedError,
  UpstreamUnavailableError,
} from '@civicgraph/kit';
import { connectAuth, type AuthUpstream } from '../upstream/auth-client.js';
import { PrincipalCache } from './principal-cache.js';
import { scaled } from '@civicgraph/kit/testing';

const TTL = 10_000;
const T0 = 1_000_000;

/**
 * The real auth client over gRPC, counting its calls; while `held`, calls wait for
 * `release()` before they go out, so a test can see who waits for auth and who does not.
 */
class ObservedAuth implements Pick<AuthUpstream, 'authenticate' | 'close'> {
  calls = 0;
  private last: Promise<Principal> | undefined;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  constructor(private readonly real: AuthUpstream) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  authenticate(key: string): Promise<Principal> {
    this.calls += 1;
    const gate = this.gate;
    const call = gate === undefined ? this.real.authenticate(key) : gate.then(() => this.real.authenticate(key));
    this.last = call;
    return call;
  }

  /** Settles once the latest call has (the cache's own handlers, attached first, have run). */
  async settled(): Promise<void> {
    await this.last?.catch(() => undefined);
  }

  close(): void {
    this.real.close();
  }
}

/**
 * The outcome of `p` if it settles without I/O (its microtasks run before the next
 * setImmediate), else 'waiting': an answer from the cache settles, one waiting for auth
 * does not. No wall-clock timer is involved.
 */
async function settledSoon<T>(p: Promise<T>): Promise<T | 'waiting'> {
  return Promise.race([p, new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
}

describe('PrincipalCache against the auth service', () => {
  const log = createLogger('test', 'silent');
  let lifecycle: Lifecycle;
  let dir: string;
  let auth: AuthService;
  let client: AuthUpstream;

  beforeAll(async () => {
    lifecycle = new Lifecycle(log);
    dir = mkdtempSync(join(tmpdir(), 'civic-principal-cache-'));
    auth = await startAuthService(
      { host: '127.0.0.1', port: 0, storePath: join(dir, 'auth'), logLevel: 'silent' },
      { bus: new MemoryEventBus(), lifecycle, log },
    );
    client = connectAuth(auth.address, scaled(2_000));
  });

  afterAll(async () => {
    client.close();
    await lifecycle.stop('test done');
    rmSync(dir, { recursive: true, force: true });
  });

  const issue = async () =>
    await auth.keys.create({
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_BUILD,
      label: 'cache test',
      pinnedVersion: '',
    });

  it('asks auth once for concurrent and repeated requests within the TTL', async () => {
    const { key, record } = await issue();
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL);
    const first = await Promise.all([cache.get(key, T0), cache.get(key, T0), cache.get(key, T0 + 10)]);
    expect(first.map((p) => p.keyId)).toEqual([record.keyId, record.keyId, record.keyId]);
    await cache.get(key, T0 + TTL * 0.5);
    expect(observed.calls).toBe(1);
  });

  it('answers a key near expiry at once and refreshes it in the background, once', async () => {
    const { key, record } = await issue();
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL);
    await cache.get(key, T0);
    observed.hold();
    const nearExpiry = T0 + TTL * 0.9;
    const answers = await Promise.all([0, 1, 2].map(() => settledSoon(cache.get(key, nearExpiry))));
    expect(answers.map((a) => (a === 'waiting' ? a : a.keyId))).toEqual([record.keyId, record.keyId, record.keyId]);
    expect(observed.calls).toBe(2);
    observed.release();
    await observed.settled();
    // The refreshed entry lives a TTL from when the refresh was asked for.
    await cache.get(key, T0 + TTL + 1);
    expect(observed.calls).toBe(2);
    await cache.get(key, nearExpiry + TTL - 1);
    expect(observed.calls).toBe(3); // past the new entry's refresh point: one more background refresh
  });

  it('makes waiting callers of an expired entry share one auth call', async () => {
    const { key } = await issue();
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL);
    await cache.get(key, T0);
    observed.hold();
    const late = T0 + TTL + 1;
    const waiting = [cache.get(key, late), cache.get(key, late)];
    expect(await settledSoon(waiting[0]!)).toBe('waiting');
    observed.release();
    await Promise.all(waiting);
    expect(observed.calls).toBe(2);
  });

  it('refuses a key revoked before its entry expires once the background refresh has seen it', async () => {
    const { key, record } = await issue();
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL);
    await cache.get(key, T0);
    await auth.keys.revoke(record.keyId);
    const nearExpiry = T0 + TTL * 0.85;
    expect((await cache.get(key, nearExpiry)).keyId).toBe(record.keyId); // answered while auth is asked
    await observed.settled();
    const refused = await cache.get(key, nearExpiry + 1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnauthenticatedError);
    expect(refused).toMatchObject({ field: 'Authorization' });
    expect(observed.calls).toBe(2);
  });

  it('keeps answering while auth is unreachable until the entry expires, then fails closed', async () => {
    const { key, record } = await issue();
    const unreachable = connectAuth('127.0.0.1:1', 500);
    const first = new ObservedAuth(client);
    const down = new ObservedAuth(unreachable);
    const cache = new PrincipalCache({ authenticate: (k) => (first.calls === 0 ? first : down).authenticate(k) }, TTL);
    try {
      await cache.get(key, T0);
      expect((await cache.get(key, T0 + TTL * 0.9)).keyId).toBe(record.keyId);
      await down.settled();
      // The failed refresh leaves the entry answering up to its expiry...
      expect((await cache.get(key, T0 + TTL - 1)).keyId).toBe(record.keyId);
      expect(down.calls).toBe(2); // one retry, halfway to expiry
      // ...and not a moment past it.
      await expect(cache.get(key, T0 + TTL)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      unreachable.close();
    }
  });

  it('keeps made-up keys apart: a flood of refusals never evicts a key in use', async () => {
    const { key, record } = await issue();
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL, 3, 5);
    await cache.get(key, T0);
    for (let i = 0; i < 50; i += 1)
      await expect(cache.get(`cg_test_madeup${i}`, T0 + 1)).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(cache.size).toEqual({ confirmed: 1, other: 5 });
    const calls = observed.calls;
    expect((await cache.get(key, T0 + 2)).keyId).toBe(record.keyId);
    expect(observed.calls).toBe(calls); // still cached: no auth call
  });

  it('holds refusals within their byte budget too, whatever the count allows', async () => {
    const observed = new ObservedAuth(client);
    // Room for 10,000 refusals by count, four by bytes (a refusal weighs 512).
    const cache = new PrincipalCache(observed, TTL, 50_000, 10_000, { confirmed: 1 << 20, other: 4 * 512 });
    for (let i = 0; i < 50; i += 1)
      await expect(cache.get(`cg_test_madeup${i}`, T0)).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(cache.size.other).toBe(4);
    expect(cache.bytes.other).toBeLessThanOrEqual(4 * 512);
  });

  it('evicts the least recently used confirmed key, not all of them', async () => {
    const keys = await Promise.all([issue(), issue(), issue()]);
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL, 2);
    await cache.get(keys[0]!.key, T0);
    await cache.get(keys[1]!.key, T0);
    await cache.get(keys[0]!.key, T0 + 1_500); // used again: the young end
    await cache.get(keys[2]!.key, T0 + 1_600); // full: the oldest (keys[1]) goes
    const calls = observed.calls;
    await cache.get(keys[0]!.key, T0 + 1_700);
    await cache.get(keys[2]!.key, T0 + 1_700);
    expect(observed.calls).toBe(calls);
    await cache.get(keys[1]!.key, T0 + 1_800);
    expect(observed.calls).toBe(calls + 1);
  });

  it('runs the gate on a miss only: a refusing gate stops the lookup before auth is asked', async () => {
    const { key } = await issue();
    const observed = new ObservedAuth(client);
    const cache = new PrincipalCache(observed, TTL);
    let gated = 0;
    const open = async () => void (gated += 1);
    await cache.get(key, T0, open);
    await cache.get(key, T0 + 1, open);
    expect(gated).toBe(1);
    const shut = () => Promise.reject(new Error('too many unknown keys'));
    await expect(cache.get('cg_test_neverseen', T0, shut)).rejects.toThrow('too many unknown keys');
    expect(observed.calls).toBe(1);
    // A key already confirmed passes a shut gate, and so does its renewal once its entry has
    // expired: auth confirmed it, so it is not an unknown key (a flood of made-up keys from its
    // address must not lock it out).
    await expect(cache.get(key, T0 + 2, shut)).resolves.toMatchObject({ keyId: expect.any(String) });
    await expect(cache.get(key, T0 + TTL + 1, shut)).resolves.toMatchObject({ keyId: expect.any(String) });
    expect(observed.calls).toBe(2);
  });
});
