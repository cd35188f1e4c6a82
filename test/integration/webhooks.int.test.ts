import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { get, send, startStack, type Stack } from '../harness/stack.js';
import { CONTACT_FIELDS, DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import { scaled } from '@civicgraph/kit/testing';

/** /v1/webhooks over real HTTP, and a real data change delivered, signed, to a real receiver. */

let s: Stack;
let build: string;
let contactKey: string;
let receiver: Receiver;
let receiverUrl: string;

beforeAll(async () => {
  receiver = await startReceiver();
  receiverUrl = receiver.url;
  s = await startStack({ demo: { regions: REGIONS, today: TODAY }, webhooks: true });
  build = await s.key();
  contactKey = await s.key({ entitlements: { contact: true, geography: true, states: [], tiers: [] } });
}, scaled(60_000));
afterAll(async () => {
  await s?.stop();
  await receiver?.stop();
});

const call = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  send(`${s.url}${path}`, method, key, body, headers);
const verified = (secret: string, path: string) => receiver.verified(secret, path);

describe('/v1/webhooks', () => {
  it('refuses an Explore key as plan_required', async () => {
    const explore = await s.key({ plan: Plan.PLAN_EXPLORE });
    const res = await call('POST', '/v1/webhooks', explore, { url: `${receiverUrl}/x`, events: ['candidacy.updated'] });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ type: 'plan_required', field: 'webhooks' });
  });

  it.each([
    ['plain http to a public host', { url: 'http://hooks.example.com/x', events: ['candidacy.updated'] }, 'url'],
    ['the cloud metadata address', { url: 'https://169.254.169.254/latest', events: ['candidacy.updated'] }, 'url'],
    ['an unknown event type', { url: 'http://127.0.0.1:1/x', events: ['candidacy.exploded'] }, 'events[0]'],
    ['no event types', { url: 'http://127.0.0.1:1/x' }, 'events'],
    ['an unknown state', { url: 'http://127.0.0.1:1/x', events: ['candidacy.updated'], states: ['qq'] }, 'states[0]'],
    ['malformed JSON', '{"url":', 'body'],
    [
      'a 1 MB body',
      JSON.stringify({ url: 'http://127.0.0.1:1/x', events: ['candidacy.updated'], description: 'x'.repeat(1 << 20) }),
      'body',
    ],
  ])('refuses a subscription with %s, naming the field', async (_, body, field) => {
    const res = await call('POST', '/v1/webhooks', build, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'invalid_parameter', field });
  });

  it('answers a repeated Idempotency-Key with the first result, and refuses it with another body', async () => {
    const body = { url: `${receiverUrl}/idem`, events: ['contest.created'] };
    const first = await call('POST', '/v1/webhooks', build, body, { 'Idempotency-Key': 'create-1' });
    const again = await call('POST', '/v1/webhooks', build, body, { 'Idempotency-Key': 'create-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await call(
      'POST',
      '/v1/webhooks',
      build,
      { ...body, events: ['contest.updated'] },
      { 'Idempotency-Key': 'create-1' },
    );
    expect(other.body).toMatchObject({ type: 'invalid_parameter', field: 'Idempotency-Key' });
    expect(
      (await call('GET', '/v1/webhooks', build)).body.data.filter((e: any) => e.url.endsWith('/idem')),
    ).toHaveLength(1);
  });

  it('delivers a real data change, signed and shaped for the key, and logs it; redelivers it on request', async () => {
    const created = await call('POST', '/v1/webhooks', build, {
      url: `${receiverUrl}/changes`,
      events: ['candidacy.filing_status_changed'],
      states: ['CO'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      events: ['candidacy.filing_status_changed'],
      states: ['co'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const secret: string = created.body.secret;
    expect((await call('GET', `/v1/webhooks/${created.body.id}`, build)).body.secret).toBeUndefined();
    const withContact = await call('POST', '/v1/webhooks', contactKey, {
      url: `${receiverUrl}/contact`,
      events: ['candidacy.updated'],
      states: ['co'],
    });

    const target = (await get(`${s.url}/v1/contests?state=co&limit=200`, build)).body.data[0];
    const candidacy = (await get(`${s.url}/v1/candidacies?contest=${encodeURIComponent(target.slug)}&limit=1`, build))
      .body.data[0];
    await s.graph.writer.moveCandidacy(
      candidacy.slug,
      { filingStatus: 'WITHDRAWN' },
      'provenance:demo-synthetic-registry',
    );
    await s.graph.drainOutbox();

    await expect.poll(() => verified(secret, '/changes').length, { timeout: scaled(10_000), interval: 20 }).toBe(1);
    const [payload] = verified(secret, '/changes');
    expect(payload).toMatchObject({
      type: 'candidacy.filing_status_changed',
      environment: 'test',
      data: { slugs: expect.arrayContaining([candidacy.slug]) },
    });
    expect(payload.data.changes).toEqual([expect.objectContaining({ field: 'filingStatus', after: 'WITHDRAWN' })]);
    for (const f of ['campaignEmails', 'campaignPhones', 'campaignTeam', ...CONTACT_FIELDS])
      expect(JSON.stringify(payload)).not.toContain(f);
    await expect
      .poll(() => verified(withContact.body.secret, '/contact').length, { timeout: scaled(10_000), interval: 20 })
      .toBe(1);
    expect(JSON.stringify(verified(withContact.body.secret, '/contact')[0].data.object)).toContain('campaignEmails');

    const deliveries = await call('GET', `/v1/webhooks/${created.body.id}/deliveries`, build);
    await expect
      .poll(async () => (await call('GET', `/v1/webhooks/${created.body.id}/deliveries`, build)).body.data[0]?.status, {
        timeout: scaled(5_000),
        interval: 20,
      })
      .toBe('succeeded');
    const delivery = (await call('GET', `/v1/webhooks/${created.body.id}/deliveries`, build)).body.data[0];
    expect(deliveries.status).toBe(200);
    expect(delivery).toMatchObject({
      object: 'webhook_delivery',
      type: 'candidacy.filing_status_changed',
      webhook_id: payload.id,
      attempts: [{ status: 200, latency_ms: expect.any(Number), error: null }],
    });

    const again = await call('POST', `/v1/webhooks/${created.body.id}/deliveries/${delivery.id}/redeliver`, build);
    expect(again.status).toBe(202);
    await expect.poll(() => verified(secret, '/changes').length, { timeout: scaled(10_000), interval: 20 }).toBe(2);
    const ids = receiver.received.filter((r) => r.path === '/changes').map((r) => String(r.headers['webhook-id']));
    expect(new Set(ids)).toEqual(new Set([payload.id]));
  });

  it('delivers officeholder.changed when an office gains a holder and when the term ends, naming the office and the person', async () => {
    const created = await call('POST', '/v1/webhooks', build, {
      url: `${receiverUrl}/holders`,
      events: ['officeholder.changed'],
    });
    expect(created.status).toBe(201);
    const person = 'person:test-next-governor';
    const term = {
      kind: 'HOLDS' as const,
      from: person,
      to: 'office:co-governor',
      key: '2031-01-14',
      data: { start: '2031-01-14', end: null, party: null },
    };
    await s.graph.writer.apply({
      nodes: [
        {
          kind: 'person',
          slug: person,
          state: 'co',
          tier: '',
          data: {
            name: 'Next Governor',
            givenName: null,
            familyName: null,
            ids: {},
            birthday: null,
            gender: null,
            contactEmails: ['next@gov.example.org'],
          },
        },
      ],
      edges: [term],
    });
    await s.graph.writer.apply({ nodes: [], edges: [{ ...term, data: { ...term.data, end: '2035-01-09' } }] });
    await s.graph.drainOutbox();

    await expect
      .poll(() => verified(created.body.secret, '/holders').length, { timeout: scaled(10_000), interval: 20 })
      .toBe(2);
    const got = verified(created.body.secret, '/holders');
    const began = got.find((p) => p.data.changed_fields.includes('start'))!;
    const ended = got.find((p) => p.data.changed_fields.join() === 'end')!;
    expect(began).toMatchObject({
      type: 'officeholder.changed',
      data: { slugs: ['office:co-governor', person], changed_fields: ['end', 'party', 'start'] },
    });
    expect(began.data.object).toMatchObject({
      kind: 'officeholder',
      state: 'co',
      tier: 'state',
      data: { person: { slug: person }, office: { slug: 'office:co-governor' }, start: '2031-01-14', end: null },
    });
    expect(ended.data.changes).toEqual([{ field: 'end', before: null, after: '2035-01-09' }]);
    // The key has no contact entitlement: the person's email is nowhere in what it receives.
    expect(JSON.stringify(got)).not.toContain('next@gov.example.org');
    const holders = (await get(`${s.url}/v1/officeholders?office=office:co-governor&date=2032-06-01`, build)).body.data;
    expect(holders.map((o: any) => [o.person_slug, o.term_start, o.term_end])).toEqual([
      [person, '2031-01-14', '2035-01-09'],
    ]);
  });

  it('sends a test event on request', async () => {
    const created = await call('POST', '/v1/webhooks', build, {
      url: `${receiverUrl}/ping`,
      events: ['contest.created'],
    });
    expect((await call('POST', `/v1/webhooks/${created.body.id}/test`, build)).status).toBe(202);
    await expect
      .poll(() => verified(created.body.secret, '/ping').map((p) => p.type), { timeout: scaled(10_000), interval: 20 })
      .toEqual(['webhook.test']);
  });

  it("keeps one key's endpoints from every other key, as not found", async () => {
    const created = await call('POST', '/v1/webhooks', build, {
      url: `${receiverUrl}/mine`,
      events: ['contest.created'],
    });
    const other = await s.key();
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await call(
        method,
        `/v1/webhooks/${created.body.id}${path}`,
        other,
        method === 'PATCH' ? { enabled: false } : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.type).toBe('not_found');
    }
    expect((await call('GET', '/v1/webhooks', other)).body.data).toEqual([]);
    const twice = await call('GET', '/v1/webhooks?limit=1&limit=2', other);
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ type: 'invalid_parameter', field: 'limit' });
  });

  it('pages both listings with signed cursors, as every list does, and refuses a cursor from elsewhere', async () => {
    const key = await s.key();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await call('POST', '/v1/webhooks', key, {
        url: `${receiverUrl}/page-${n}`,
        events: ['contest.created'],
      });
      ids.push(res.body.id);
    }
    const first = await call('GET', '/v1/webhooks?limit=2', key);
    expect(first.body.data.map((e: any) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call('GET', `/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`, key);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[2] })], next_cursor: null });
    expect((await call('GET', '/v1/webhooks', key)).body.next_cursor).toBeNull();

    const tests: string[] = [];
    for (let i = 0; i < 3; i++) tests.push((await call('POST', `/v1/webhooks/${ids[0]}/test`, key)).body.id);
    const deliveries = `/v1/webhooks/${ids[0]}/deliveries`;
    const newest = await call('GET', `${deliveries}?limit=2`, key);
    const older = await call('GET', `${deliveries}?limit=2&cursor=${newest.body.next_cursor}`, key);
    expect([...newest.body.data, ...older.body.data].map((d: any) => d.id)).toEqual(tests.reverse());
    expect(older.body.next_cursor).toBeNull();

    const other = await s.key();
    for (const n of [1, 2])
      await call('POST', '/v1/webhooks', other, { url: `${receiverUrl}/theirs-${n}`, events: ['contest.created'] });
    const theirs = (await call('GET', '/v1/webhooks?limit=1', other)).body.next_cursor;
    expect(theirs).toEqual(expect.any(String));
    const refused = [
      // Another key's cursor, a cursor of the other listing, an edited one, and Stripe's word for it.
      [`/v1/webhooks?cursor=${theirs}`, 'cursor'],
      [`${deliveries}?cursor=${first.body.next_cursor}`, 'cursor'],
      [`/v1/webhooks?cursor=${first.body.next_cursor.slice(0, -2)}xx`, 'cursor'],
      [`/v1/webhooks?starting_after=${ids[0]}`, 'starting_after'],
      ['/v1/webhooks?limit=0', 'limit'],
    ];
    for (const [path, field] of refused) {
      const res = await call('GET', path!, key);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ type: 'invalid_parameter', field });
    }
  });

  it('pauses, resumes and deletes an endpoint', async () => {
    const created = await call('POST', '/v1/webhooks', build, {
      url: `${receiverUrl}/pause`,
      events: ['contest.created'],
    });
    expect((await call('PATCH', `/v1/webhooks/${created.body.id}`, build, { enabled: false })).body).toMatchObject({
      enabled: false,
      disabled_reason: expect.any(String),
    });
    expect(
      (await call('PATCH', `/v1/webhooks/${created.body.id}`, build, { enabled: true, events: ['contest.updated'] }))
        .body,
    ).toMatchObject({ enabled: true, disabled_reason: null, events: ['contest.updated'] });
    expect(
      (await call('PATCH', `/v1/webhooks/${created.body.id}`, build, { url: 'https://10.0.0.1/x' })).body,
    ).toMatchObject({ type: 'invalid_parameter', field: 'url' });
    expect((await call('DELETE', `/v1/webhooks/${created.body.id}`, build)).body).toMatchObject({ deleted: true });
    expect((await call('GET', `/v1/webhooks/${created.body.id}`, build)).status).toBe(404);
  });
});
