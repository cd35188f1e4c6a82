import { Writable } from 'node:stream';
import { createServer } from 'node:net';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeEvent, type CivicEvent } from './catalogue.js';
import { eventObjectView } from './event-objects.js';
import { randomBase62 } from '../base62.js';
import { describeWithService } from '../testing/describe-with-service.js';
import { describeEventBusContract } from '../testing/event-bus.contract.js';
import { NatsEventBus, NatsUnavailableError, probeNats } from './nats-bus.js';
import { serviceAvailability } from './require-service.js';
import { scaled } from '../testing/time-scale.js';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${url}`, () => probeNats(url));

describeWithService('NatsEventBus', nats, () => {
  describeEventBusContract('nats', () => NatsEventBus.connect({ url, name: 'kit-bus-contract' }));

  describe('on a real server', () => {
    let lines: string[];
    let bus: NatsEventBus;
    beforeEach(async () => {
      lines = [];
      const sink = new Writable({ write: (chunk, _enc, done) => done(void lines.push(String(chunk))) });
      bus = await NatsEventBus.connect({ url, logger: pino({ level: 'warn' }, sink) });
    });
    afterEach(() => bus.close());

    test('a malformed message on the stream is logged and skipped, and later events still arrive', async () => {
      const env = `t${randomBase62(8).toLowerCase()}`;
      const got: string[] = [];
      await bus.subscribe(`civic.${env}.>`, (e) => void got.push(e.id));
      await rawPublish(`civic.${env}.region.updated`, 'not json at all');
      const good = makeEvent({ env, kind: 'region', verb: 'updated', slugs: ['us-ca'], version: 'v1' });
      await bus.publish(good);
      await expect.poll(() => got, { timeout: scaled(10_000) }).toEqual([good.id]);
      expect(lines.join('')).toContain('skipping malformed event message');
    });

    test('an event a release before the typed envelope published as JSON text arrives typed, among protobuf ones', async () => {
      const env = `t${randomBase62(8).toLowerCase()}`;
      const got: CivicEvent[] = [];
      await bus.subscribe(`civic.${env}.>`, (e) => void got.push(e));
      const old = makeEvent({
        env,
        kind: 'party',
        verb: 'updated',
        slugs: ['party:dem'],
        changedFields: ['name'],
        version: '2',
      });
      const node = {
        slug: 'party:dem',
        kind: 'party',
        state: '',
        tier: '',
        rev: 2,
        updatedAt: '2026-11-01T00:00:00.000Z',
        data: { name: 'Democratic' },
      };
      await rawPublish(
        old.subject,
        JSON.stringify({
          ...old,
          changes: [{ field: 'name', beforeJson: '"Dem"', afterJson: '"Democratic"' }],
          nodeJson: JSON.stringify(node),
        }),
      );
      const now = makeEvent({ env, kind: 'party', verb: 'updated', slugs: ['party:dem'], version: '3' });
      await bus.publish(now);
      await expect.poll(() => got.map((e) => e.id), { timeout: scaled(10_000) }).toEqual([old.id, now.id]);
      expect(got[0]).toMatchObject({
        changes: [{ field: 'name', before: 'Dem', after: 'Democratic' }],
        node: { slug: 'party:dem', rev: 2, data: { name: 'Democratic' } },
      });
      expect(eventObjectView(got[0]!)).toEqual(node);
    });

    test('connecting again to an existing stream leaves it in place', async () => {
      const again = await NatsEventBus.connect({ url });
      await again.close();
    });
  });
});

describe('NatsEventBus.connect', () => {
  test('rejects with NatsUnavailableError when no server listens', async () => {
    const deadUrl = `nats://127.0.0.1:${await unusedPort()}`;
    await expect(NatsEventBus.connect({ url: deadUrl, connectTimeoutMs: 500 })).rejects.toBeInstanceOf(
      NatsUnavailableError,
    );
  });
});

/** Publishes bytes straight to JetStream, bypassing the bus's envelope checks. */
async function rawPublish(subject: string, payload: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    await jetstream(nc).publish(subject, payload);
  } finally {
    await nc.close();
  }
}

/** A loopback port nothing listens on: bound by the OS, then released. */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
