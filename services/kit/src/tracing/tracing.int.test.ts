import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { connect } from '@nats-io/transport-node';
import { trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GeoServiceClient, GeoServiceService, type GeoServiceServer } from '@civicgraph/protos/civic/geo/v1/geo';
import { randomBase62 } from '../base62.js';
import { makeEvent, type CivicEvent } from '../bus/catalogue.js';
import type { EventBus } from '../bus/event-bus.js';
import { LocalStreamBus } from '../bus/local-stream-bus.js';
import { MemoryEventBus } from '../bus/memory-bus.js';
import { NatsEventBus, probeNats } from '../bus/nats-bus.js';
import { serviceAvailability } from '../bus/require-service.js';
import { NotFoundError, UpstreamUnavailableError } from '../errors.js';
import { call, clientOptions, insecure } from '../grpc/client.js';
import { startGrpcServer } from '../grpc/server.js';
import { unary } from '../grpc/unary.js';
import { Lifecycle } from '../lifecycle.js';
import { createLogger } from '../log.js';
import { defineSettings, TRACING_SETTINGS, tracingConfigOf } from '../settings.js';
import { describeWithService } from '../testing/describe-with-service.js';
import { recordSpans, type RecordedSpans } from '../testing/record-spans.js';
import { scaled } from '../testing/time-scale.js';
import { inSpan, SpanKind, SpanStatusCode } from './spans.js';
import { startTracing, tracer } from './tracing.js';

/**
 * Traces across the process's edges with the real OpenTelemetry SDK (spans kept in memory):
 * gRPC calls (client interceptor, server `unary`) and the event bus (publish, subscribers),
 * each hop a child of the one before, and nothing at all with tracing at its default, off.
 */
const log = createLogger('test', 'silent');
const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${url}`, () => probeNats(url));
const running: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
});

/** A geo service over real gRPC: DistrictsAtPoint keeps the traceparent it was sent, then does `answer`. */
async function geoServer(answer: (calls: number) => Promise<void> = async () => undefined) {
  const seen: string[] = [];
  const implementation: Pick<GeoServiceServer, 'districtsAtPoint'> = {
    districtsAtPoint: unary(log, 'DistrictsAtPoint', async (_req, c) => {
      seen.push(String(c.metadata.get('traceparent')[0] ?? ''));
      await answer(seen.length);
      return { regions: [], datasetVersion: 'v1' };
    }),
  };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ name: 'civic.geo.v1.GeoService', definition: GeoServiceService, implementation }],
    log,
  });
  const client = new GeoServiceClient(server.address, insecure(), clientOptions(10_000));
  running.push(
    () => server.stop(1_000),
    () => client.close(),
  );
  const ask = () => call(client.districtsAtPoint.bind(client), { lat: 1, lng: 1, date: '' }, new Metadata());
  return { ask, seen };
}

const DISTRICTS = 'civic.geo.v1.GeoService/DistrictsAtPoint';
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;

describe('tracing at its default settings', () => {
  it('is off: no tracer, and gRPC calls carry no traceparent', async () => {
    const lifecycle = new Lifecycle(log);
    const config = tracingConfigOf(defineSettings('t', TRACING_SETTINGS).parse({}), 't');
    expect(config.exporter).toBe('none');
    await startTracing(config, lifecycle, log);
    expect(tracer()).toBeUndefined();
    const { ask, seen } = await geoServer();
    await inSpan({ name: 'caller', kind: SpanKind.INTERNAL }, ask);
    expect(seen).toEqual(['']);
    expect(trace.getActiveSpan()).toBeUndefined();
    await lifecycle.stop('done');
  });
});

describe('tracing on', () => {
  const lifecycle = new Lifecycle(log);
  let spans: RecordedSpans;
  beforeAll(async () => {
    spans = await recordSpans(lifecycle);
  });
  afterAll(() => lifecycle.stop('done'));
  afterEach(() => spans.clear());

  it('a call is a CLIENT span under the caller, the answering service a SERVER span under it, hop after hop', async () => {
    const leaf = await geoServer();
    const middle = await geoServer(async () => void (await leaf.ask()));
    await inSpan({ name: 'caller', kind: SpanKind.INTERNAL }, middle.ask);
    const [caller] = spans.named('caller');
    const clients = spans.all().filter((s) => s.name === DISTRICTS && s.kind === SpanKind.CLIENT);
    const servers = spans.all().filter((s) => s.name === DISTRICTS && s.kind === SpanKind.SERVER);
    expect(clients).toHaveLength(2);
    expect(servers).toHaveLength(2);
    // Ended inner first: the leaf's server span, then the middle's call to it, …
    const [leafServer, middleServer] = servers as [ReadableSpan, ReadableSpan];
    const [leafCall, middleCall] = clients as [ReadableSpan, ReadableSpan];
    expect(parentOf(middleCall)).toBe(idOf(caller!));
    expect(parentOf(middleServer)).toBe(idOf(middleCall));
    expect(parentOf(leafCall)).toBe(idOf(middleServer));
    expect(parentOf(leafServer)).toBe(idOf(leafCall));
    expect(new Set(spans.all().map(traceOf))).toEqual(new Set([traceOf(caller!)]));
    // What went over the wire: W3C traceparent naming the calling span.
    expect(middle.seen[0]).toBe(`00-${traceOf(caller!)}-${idOf(middleCall)}-01`);
    expect(middleServer.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.method': 'DistrictsAtPoint' });
  });

  it('a failed call ends both its spans as errors with the gRPC status code', async () => {
    const { ask } = await geoServer(async () => {
      throw new NotFoundError('no such point');
    });
    await expect(ask()).rejects.toThrow(/no such point/);
    expect(spans.named(DISTRICTS)).toHaveLength(2);
    for (const s of spans.named(DISTRICTS)) {
      expect(s.status.code).toBe(SpanStatusCode.ERROR);
      expect(s.attributes['rpc.grpc.status_code']).toBe(5);
    }
  });

  it('a call retried after UNAVAILABLE is one CLIENT span, each attempt a SERVER span under it', async () => {
    const { ask } = await geoServer(async (calls) => {
      if (calls === 1) throw new UpstreamUnavailableError('restarting');
    });
    await ask();
    const [client, ...servers] = [
      ...spans.all().filter((s) => s.kind === SpanKind.CLIENT),
      ...spans.all().filter((s) => s.kind === SpanKind.SERVER),
    ];
    expect(servers).toHaveLength(2);
    expect(servers.map(parentOf)).toEqual([idOf(client!), idOf(client!)]);
    expect(servers.map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    expect(client!.status.code).toBe(SpanStatusCode.UNSET);
  });

  /** The event bus contract for traces: the subscriber runs in a CONSUMER span under the PRODUCER span of its publish. */
  function tracesEvents(open: () => Promise<EventBus>, durable?: string) {
    it(`an event published in a span reaches its subscriber${durable ? ' (durable)' : ''} in a CONSUMER span under the PRODUCER span`, async () => {
      const bus = await open();
      running.push(() => bus.close());
      const env = `t${randomBase62(8).toLowerCase()}`;
      const handled: { event: CivicEvent; span: string | undefined }[] = [];
      await bus.subscribe(
        `civic.${env}.>`,
        (event) => void handled.push({ event, span: trace.getActiveSpan()?.spanContext().spanId }),
        durable === undefined ? {} : { durable: `${durable}-${env}` },
      );
      const event = makeEvent({ env, kind: 'region', verb: 'updated', slugs: ['region:co'], version: 'v1' });
      await inSpan({ name: 'change', kind: SpanKind.INTERNAL }, () => bus.publish(event));
      await expect.poll(() => handled.length, { timeout: scaled(10_000) }).toBe(1);
      const [change] = spans.named('change');
      const [publish] = spans.named(`publish ${event.subject}`);
      await expect.poll(() => spans.named(`process ${event.subject}`).length).toBe(1);
      const [process] = spans.named(`process ${event.subject}`);
      expect(publish!.kind).toBe(SpanKind.PRODUCER);
      expect(process!.kind).toBe(SpanKind.CONSUMER);
      expect(parentOf(publish!)).toBe(idOf(change!));
      expect(parentOf(process!)).toBe(idOf(publish!));
      expect(traceOf(process!)).toBe(traceOf(change!));
      expect(handled[0]!.span).toBe(idOf(process!));
      expect(process!.attributes).toMatchObject({ 'messaging.message.id': event.id });
    });
  }

  describe('the in-process bus', () => tracesEvents(async () => new MemoryEventBus()));
  describe('the local stream', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-stream-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    tracesEvents(() => LocalStreamBus.open({ path: join(dir, randomBase62(6)) }));
  });
  describeWithService('NATS JetStream', nats, () => {
    tracesEvents(() => NatsEventBus.connect({ url, name: 'kit-tracing' }));
    tracesEvents(() => NatsEventBus.connect({ url, name: 'kit-tracing' }), 'tracing');

    it('carries the trace as a W3C traceparent message header', async () => {
      const bus = await NatsEventBus.connect({ url, name: 'kit-tracing' });
      const nc = await connect({ servers: url });
      running.push(
        () => bus.close(),
        () => nc.close(),
      );
      const env = `t${randomBase62(8).toLowerCase()}`;
      const raw = nc.subscribe(`civic.${env}.>`, { max: 1 });
      await nc.flush();
      const event = makeEvent({ env, kind: 'region', verb: 'updated', slugs: ['region:co'], version: 'v1' });
      await bus.publish(event);
      for await (const msg of raw) {
        const [publish] = spans.named(`publish ${event.subject}`);
        expect(msg.headers?.get('traceparent')).toBe(`00-${traceOf(publish!)}-${idOf(publish!)}-01`);
      }
    });
  });
});
