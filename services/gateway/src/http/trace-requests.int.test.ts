import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as later } from 'node:timers/promises';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, currentTraceHeaders, Lifecycle, SpanKind, SpanStatusCode } from '@civicgraph/kit';
import { recordSpans, type RecordedSpans } from '@civicgraph/kit/testing';
import { requestContext } from './edge.js';
import { traceRequests } from './trace-requests.js';

const lines: Record<string, unknown>[] = [];
const log = createLogger('gateway', 'info', { write: (s: string) => void lines.push(JSON.parse(s)) });
const lifecycle = new Lifecycle(createLogger('test', 'silent'));
let spans: RecordedSpans;
let url: string;
let close: () => void;

beforeAll(async () => {
  spans = await recordSpans(lifecycle);
  const app = express();
  app.use(traceRequests());
  app.use(requestContext(log));
  // What the handler sees as the current trace: its upstream calls would send this.
  app.post('/v1/things/:id', express.json(), (req, res) => {
    res.json({ traceparent: currentTraceHeaders()['traceparent'], body: req.body });
  });
  app.get('/v1/broken', () => {
    throw new Error('broken');
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(async () => {
  close();
  await lifecycle.stop('done');
});

/** POST whose body is sent after the headers, so the body parser's events come from the socket, later. */
function postLate(path: string, body: string, headers: Record<string, string> = {}): Promise<{ traceparent: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(JSON.parse(text) as { traceparent: string }));
    });
    req.on('error', reject);
    req.flushHeaders();
    void later(20).then(() => req.end(body));
  });
}

describe('HTTP request spans', () => {
  it('make each request a SERVER span named by route template, current in its handler even after the body arrives', async () => {
    spans.clear();
    const answer = await postLate('/v1/things/thing-42', '{"a":1}');
    await expect.poll(() => spans.named('POST /v1/things/:id').length).toBe(1);
    const [span] = spans.named('POST /v1/things/:id');
    expect(span!.kind).toBe(SpanKind.SERVER);
    expect(span!.attributes).toMatchObject({ 'http.route': '/v1/things/:id', 'http.response.status_code': 200 });
    const { traceId, spanId } = span!.spanContext();
    expect(answer.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(lines.at(-1)).toMatchObject({ msg: 'request', trace_id: traceId });
  });

  it('continue the trace of an incoming W3C traceparent header', async () => {
    spans.clear();
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await postLate('/v1/things/x', '{}', { traceparent: `00-${trace}-00f067aa0ba902b7-01` });
    await expect.poll(() => spans.all().length).toBe(1);
    const [span] = spans.all();
    expect(span!.spanContext().traceId).toBe(trace);
    expect(span!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(answer.traceparent).toContain(trace);
  });

  it('mark a 5xx answer an error and name an unmatched path as such, never by the path itself', async () => {
    spans.clear();
    expect((await fetch(`${url}/v1/broken`)).status).toBe(500);
    expect((await fetch(`${url}/nowhere/at-all`)).status).toBe(404);
    await expect.poll(() => spans.all().length).toBe(2);
    const [broken, missing] = spans.all();
    expect(broken!.name).toBe('GET /v1/broken');
    expect(broken!.status.code).toBe(SpanStatusCode.ERROR);
    expect(missing!.name).toBe('GET unmatched');
    expect(missing!.status.code).toBe(SpanStatusCode.UNSET);
  });
});
