import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeNats, serviceAvailability } from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import type { Gateway } from '@civicgraph/gateway';
import { get, startStack, type Stack } from '../harness/stack.js';

/**
 * Revocation reaches every gateway through the bus: two gateways, each with its own NATS
 * connection and a principal cache that would keep the key for a minute, both refuse it
 * within a second of the revocation.
 */

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));
const ADMIN = 'admin-token-for-revocation-tests-0123456789';

describeWithService('revocation across two gateways over NATS JetStream', nats, () => {
  let s: Stack;
  let second: Gateway;

  beforeAll(async () => {
    s = await startStack({ natsUrl, env: `r${Date.now().toString(36)}`, authCacheMs: 60_000, adminToken: ADMIN });
    second = await s.addGateway();
  }, scaled(60_000));
  afterAll(() => s?.stop());

  const layers = (url: string, key: string) => get(`${url}/v1/meta/layers`, key);

  it('refuses a revoked key at both gateways within one second, well inside their one-minute caches', async () => {
    const key = await s.key();
    const id = (await s.auth.keys.list()).at(-1)!.keyId;
    expect((await layers(s.url, key)).status).toBe(200);
    expect((await layers(second.url, key)).status).toBe(200);

    const revokedAt = Date.now();
    const res = await fetch(`${s.url}/admin/v1/keys/${id}/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}` },
    });
    expect(res.status).toBe(200);
    const refusedWithin = await Promise.all(
      [s.url, second.url].map(async (url) => {
        for (;;) {
          if ((await layers(url, key)).status === 401) return Date.now() - revokedAt;
          if (Date.now() - revokedAt > scaled(5_000)) return Infinity;
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
    for (const ms of refusedWithin) expect(ms).toBeLessThanOrEqual(scaled(1_000));
  });

  it("drops a rotated key's old secret at both gateways when it is rotated without grace", async () => {
    const key = await s.key();
    const id = (await s.auth.keys.list()).at(-1)!.keyId;
    for (const url of [s.url, second.url]) expect((await layers(url, key)).status).toBe(200);
    const rotated = await fetch(`${s.url}/admin/v1/keys/${id}/rotate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ grace_seconds: 0 }),
    });
    const fresh = ((await rotated.json()) as { key: string }).key;
    for (const url of [s.url, second.url]) {
      await expect
        .poll(async () => (await layers(url, key)).status, { timeout: scaled(1_000), interval: 20 })
        .toBe(401);
      expect((await layers(url, fresh)).status).toBe(200);
    }
  });
});
