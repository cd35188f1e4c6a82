import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, Lifecycle, probeNats, randomBase62, serviceAvailability, SpanKind } from '@civicgraph/kit';
import { describeWithService, recordSpans, scaled, type RecordedSpans } from '@civicgraph/kit/testing';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { get, send, startStack, type Stack } from '../harness/stack.js';

/**
 * One trace across the whole system, recorded with the real OpenTelemetry SDK: a request to
 * the gateway, its calls to the services, and the events those publish, down to the
 * gateway's own cache invalidator consuming them — over the in-process bus, and over NATS.
 */
const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${url}`, () => probeNats(url));
const ADMIN = 'admin-token-of-at-least-thirty-two-characters';
const lifecycle = new Lifecycle(createLogger('test', 'silent'));
let spans: RecordedSpans;

beforeAll(async () => {
  spans = await recordSpans(lifecycle);
});
afterAll(() => lifecycle.stop('done'));

const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const inTrace = (id: string) => spans.all().filter((s) => traceOf(s) === id);
/** The one span of `trace` named `name` and of `kind`. */
function one(trace: string, name: string, kind: SpanKind): ReadableSpan {
  const found = inTrace(trace).filter((s) => s.name === name && s.kind === kind);
  expect(found, `${name} (${SpanKind[kind]}) in ${inTrace(trace).map((s) => s.name)}`).toHaveLength(1);
  return found[0]!;
}

/** A stack traced from its start, and the checks every bus must pass. */
function tracedStack(natsUrl?: string) {
  let s: Stack;
  let key: string;
  beforeAll(async () => {
    s = await startStack({
      demo: { regions: REGIONS, today: TODAY },
      adminToken: ADMIN,
      ...(natsUrl === undefined ? {} : { natsUrl, env: `t${randomBase62(8).toLowerCase()}` }),
    });
    key = await s.key();
  }, scaled(60_000));
  afterAll(() => s?.stop());

  it('a request is one trace: the HTTP span by route template, its gRPC calls under it, each answered under the call', async () => {
    const contest = (await get(`${s.url}/v1/contests?state=co`, key)).body.data[0].slug as string;
    spans.clear();
    expect((await get(`${s.url}/v1/contests/${contest}`, key)).status).toBe(200);
    await expect.poll(() => spans.named('GET /v1/contests/:slug').length).toBe(1);
    const [http] = spans.named('GET /v1/contests/:slug');
    expect(http!.kind).toBe(SpanKind.SERVER);
    expect(http!.parentSpanContext).toBeUndefined();
    expect(http!.attributes).toMatchObject({ 'http.route': '/v1/contests/:slug', 'http.response.status_code': 200 });
    const calls = inTrace(traceOf(http!)).filter((x) => x.kind === SpanKind.CLIENT);
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) {
      expect(parentOf(c)).toBe(idOf(http!));
      const answered = one(traceOf(http!), c.name, SpanKind.SERVER);
      expect(parentOf(answered)).toBe(idOf(c));
    }
    expect(calls.map((c) => c.name)).toContain('civic.graph.v1.GraphService/GetContest');
  });

  it('continues the trace of an incoming traceparent header', async () => {
    const trace = randomHex(32);
    const parent = randomHex(16);
    spans.clear();
    const res = await get(`${s.url}/v1/regions/region:co`, key, { traceparent: `00-${trace}-${parent}-01` });
    expect(res.status).toBe(200);
    await expect.poll(() => spans.named('GET /v1/regions/:slug').length).toBe(1);
    const [http] = spans.named('GET /v1/regions/:slug');
    expect(traceOf(http!)).toBe(trace);
    expect(parentOf(http!)).toBe(parent);
    expect(inTrace(trace).filter((x) => x.kind === SpanKind.SERVER).length).toBeGreaterThan(1);
  });

  it('follows a change through the bus: a revoked key is published by auth and consumed by the gateway, one trace', async () => {
    const { record } = await s.auth.keys.create({
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_BUILD,
      label: 'revoked',
      pinnedVersion: '',
    });
    const id = record!.keyId;
    spans.clear();
    expect((await send(`${s.url}/admin/v1/keys/${id}/revoke`, 'POST', ADMIN, {})).status).toBe(200);
    const subject = `civic.${s.env}.key.revoked`;
    await expect.poll(() => spans.named(`process ${subject}`).length, { timeout: scaled(10_000) }).toBeGreaterThan(0);
    const [http] = spans.named('POST /admin/v1/keys/:id/revoke');
    const t = traceOf(http!);
    const call = one(t, 'civic.auth.v1.AuthService/RevokeKey', SpanKind.CLIENT);
    const answered = one(t, 'civic.auth.v1.AuthService/RevokeKey', SpanKind.SERVER);
    const publish = one(t, `publish ${subject}`, SpanKind.PRODUCER);
    const consumers = inTrace(t).filter((x) => x.name === `process ${subject}`);
    expect(parentOf(call)).toBe(idOf(http!));
    expect(parentOf(answered)).toBe(idOf(call));
    expect(parentOf(publish)).toBe(idOf(answered));
    expect(consumers.length).toBeGreaterThan(0);
    for (const c of consumers) {
      expect(c.kind).toBe(SpanKind.CONSUMER);
      expect(parentOf(c)).toBe(idOf(publish));
    }
  });
}

describe('tracing a stack on the in-process bus', () => tracedStack());
describeWithService('tracing a stack on NATS JetStream', nats, () => tracedStack(url));

function randomHex(n: number): string {
  return [...crypto.getRandomValues(new Uint8Array(n / 2))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
