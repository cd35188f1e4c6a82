import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeNats, serviceAvailability } from '@civicgraph/kit';
import { describeWithService, FlakyProxy, scaled } from '@civicgraph/kit/testing';
import { get, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';

/** With NATS out of reach, the gateway keeps serving (cached answers on their lifetimes) and readiness says so. */

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));

describeWithService('the gateway through a NATS outage', nats, () => {
  let proxy: FlakyProxy;
  let s: Stack;

  beforeAll(async () => {
    proxy = await FlakyProxy.start(new URL(natsUrl));
    s = await startStack({
      natsUrl: proxy.url,
      env: `o${Date.now().toString(36)}`,
      demo: { regions: REGIONS, today: TODAY },
    });
  }, scaled(60_000));
  afterAll(async () => {
    await s?.stop();
    await proxy?.stop();
  });

  const ready = async () => (await (await fetch(`${s.url}/readyz`)).json()) as { status: string; events: string };

  it(
    'reports the bus in readiness, and keeps answering from its caches while the bus is gone',
    async () => {
      const key = await s.key();
      const url = `${s.url}/v1/contests?state=co`;
      expect(await ready()).toMatchObject({ status: 'ready', events: 'ok' });
      // The demo's own creation events may still be arriving, each dropping the cache: ask until it holds.
      await s.graph.drainOutbox();
      await expect
        .poll(async () => (await get(url, key)).headers.get('civic-cache'), { timeout: scaled(10_000), interval: 100 })
        .toBe('hit');

      proxy.down();
      await expect
        .poll(async () => (await ready()).events, { timeout: scaled(10_000), interval: 50 })
        .toBe('disconnected_caches_on_ttl');
      const during = await get(url, key);
      expect(during.status).toBe(200);
      expect(during.headers.get('civic-cache')).toBe('hit');

      proxy.up();
      await expect.poll(async () => (await ready()).events, { timeout: scaled(15_000), interval: 50 }).toBe('ok');
    },
    scaled(60_000),
  );
});
