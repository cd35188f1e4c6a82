import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  createLogger,
  makeEvent,
  MemoryEventBus,
  NatsEventBus,
  probeNats,
  randomBase62,
  serviceAvailability,
  type EventBus,
} from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { Deliverer } from './delivery/deliverer.js';
import { LmdbDeliveryLog } from './delivery/lmdb-delivery-log.js';
import { Dispatcher } from './dispatcher.js';
import { LmdbEndpointStore, type EndpointRecord } from './endpoints/endpoint-store.js';
import { newSigningSecret } from './signing.js';

/** Events in, signed and shaped deliveries out: the dispatcher on a real bus, to real receivers. */

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));
const logger = createLogger('test', 'silent');

let server: Server;
let base: string;
const secret = newSigningSecret();
/** Verified payloads per receiver path. */
const got = new Map<string, any[]>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c) => (body += c))
      .on('end', () => {
        const payload = new Webhook(secret).verify(body, req.headers as Record<string, string>);
        got.set(req.url!, [...(got.get(req.url!) ?? []), payload]);
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const principal = (keyId: string, ents: Partial<NonNullable<Principal['entitlements']>> = {}): Principal => ({
  keyId,
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_BUILD,
  pinnedVersion: '2026-11-01',
  rateLimitPerMinute: 600,
  entitlements: { contact: false, geography: true, states: [], tiers: [], ...ents },
});

function endpoint(
  id: string,
  keyId: string,
  events: string[],
  ents: Partial<NonNullable<Principal['entitlements']>> = {},
  states: string[] = [],
): EndpointRecord {
  const now = new Date().toISOString();
  return {
    id,
    url: `${base}/${id}`,
    environment: 'test',
    secrets: [secret],
    enabled: true,
    keyId,
    principal: principal(keyId, ents),
    events,
    states,
    description: '',
    disabledReason: '',
    createdAt: now,
    updatedAt: now,
  };
}

function dispatcherSuite(name: string, makeBus: () => Promise<EventBus>) {
  describe(`Dispatcher on ${name}`, () => {
    const dirs: string[] = [];
    let bus: EventBus;
    let env: string;
    let store: LmdbEndpointStore;
    let log: LmdbDeliveryLog;
    let deliverer: Deliverer;
    let dispatcher: Dispatcher;
    let prefix: string;

    beforeAll(async () => {
      bus = await makeBus();
      env = `w${randomBase62(8).toLowerCase()}`;
      prefix = `we_${randomBase62(6)}`;
      const dir = mkdtempSync(join(tmpdir(), 'civic-dispatch-'));
      dirs.push(dir);
      store = LmdbEndpointStore.open(join(dir, 'endpoints'));
      log = LmdbDeliveryLog.open(join(dir, 'deliveries'));
      deliverer = new Deliverer({ log, endpoints: store, logger, pollMs: 20 });
      deliverer.start();
      await store.put(endpoint(`${prefix}_all`, 'key_contact', ['candidacy.filing_status_changed'], { contact: true }));
      await store.put(endpoint(`${prefix}_plain`, 'key_plain', ['candidacy.updated']));
      await store.put(endpoint(`${prefix}_de`, 'key_de', ['candidacy.updated'], { states: ['de'] }));
      await store.put(endpoint(`${prefix}_contests`, 'key_contests', ['contest.created']));
      await store.put(endpoint(`${prefix}_onlyde`, 'key_everything', ['candidacy.updated'], {}, ['de']));
      dispatcher = new Dispatcher({ bus, env, subscriptions: store, deliverer, logger });
      await dispatcher.start();
    });
    afterEach(() => undefined);
    afterAll(async () => {
      await dispatcher.stop();
      await deliverer.stop();
      await bus.close();
      await store.close();
      await log.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    const filingChange = (state: string) =>
      makeEvent({
        env,
        kind: 'candidacy',
        verb: 'updated',
        slugs: ['candidacy:a'],
        changedFields: ['filingStatus'],
        version: '3',
        changes: [{ field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' }],
        node: {
          slug: 'candidacy:a',
          kind: 'candidacy',
          state,
          tier: 'state',
          rev: 3,
          updatedAt: '2026-11-01T00:00:00.000Z',
          data: { fields: { filingStatus: { value: 'QUALIFIED' }, campaignEmails: { value: ['c@d.test'] } } },
        },
      });
    const path = (suffix: string) => `/${prefix}_${suffix}`;

    it('delivers a change to every endpoint whose types, states and key match, shaped for that key', async () => {
      const e = filingChange('co');
      await bus.publish(e);
      await expect.poll(() => got.get(path('plain'))?.length ?? 0, { timeout: scaled(10_000), interval: 20 }).toBe(1);
      await expect.poll(() => got.get(path('all'))?.length ?? 0, { timeout: scaled(10_000), interval: 20 }).toBe(1);
      expect(got.get(path('all'))![0]).toMatchObject({
        id: e.id,
        type: 'candidacy.filing_status_changed',
        data: { changes: [{ field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' }] },
      });
      expect(JSON.stringify(got.get(path('all')))).toContain('c@d.test');
      expect(JSON.stringify(got.get(path('plain')))).not.toContain('campaignEmails');
      // A Delaware-only key, a Delaware-only endpoint and a contests-only endpoint get nothing;
      // a later Delaware change shows they were not merely slow.
      const de = filingChange('de');
      await bus.publish(de);
      await expect.poll(() => got.get(path('onlyde'))?.length ?? 0, { timeout: scaled(10_000), interval: 20 }).toBe(1);
      await expect.poll(() => got.get(path('de'))?.length ?? 0, { timeout: scaled(10_000), interval: 20 }).toBe(1);
      expect(got.get(path('onlyde'))![0].id).toBe(de.id);
      expect(got.get(path('de'))![0].id).toBe(de.id);
      expect(got.get(path('contests'))).toBeUndefined();
    });

    it('enqueues an event handled twice only once per endpoint', async () => {
      const e = filingChange('co');
      expect(await dispatcher.handle(e)).toBe(2);
      expect(await dispatcher.handle(e)).toBe(0);
    });

    it('delivers what was published while it was stopped, once it is back', async () => {
      await dispatcher.stop();
      const missed = makeEvent({
        env,
        kind: 'contest',
        verb: 'created',
        slugs: ['contest:x'],
        version: '1',
        node: {
          slug: 'contest:x',
          kind: 'contest',
          state: 'co',
          tier: 'state',
          rev: 1,
          updatedAt: '2026-11-01T00:00:00.000Z',
          data: {},
        },
      });
      await bus.publish(missed);
      dispatcher = new Dispatcher({ bus, env, subscriptions: store, deliverer, logger });
      await dispatcher.start();
      await expect
        .poll(() => got.get(path('contests'))?.map((p) => p.id) ?? [], { timeout: scaled(10_000), interval: 20 })
        .toEqual([missed.id]);
    });

    it('disables the endpoints of a revoked key', async () => {
      await bus.publish(makeEvent({ env, kind: 'key', verb: 'revoked', slugs: ['key_plain'], version: '' }));
      await expect
        .poll(async () => (await store.get(`${prefix}_plain`))?.enabled, { timeout: scaled(10_000), interval: 20 })
        .toBe(false);
      expect((await store.get(`${prefix}_plain`))?.disabledReason).toContain('revoked');
    });
  });
}

dispatcherSuite('the in-process bus', async () => new MemoryEventBus());
describeWithService('Dispatcher on NATS JetStream', nats, () => {
  dispatcherSuite('NATS JetStream', () => NatsEventBus.connect({ url: natsUrl, logger }));
});
