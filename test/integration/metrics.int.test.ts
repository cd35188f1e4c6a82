import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { createLogger, Lifecycle, makeEvent, METRICS, startMetricsServer } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, NEXT_GENERAL } from '../harness/demo.js';
import { get, send, startStack, type Stack } from '../harness/stack.js';

/**
 * Prometheus metrics of a running stack, read from the /metrics listener as Prometheus
 * would: HTTP requests by route template and status, gRPC calls by method and code, cache
 * hits and misses, and the lag of ingest imports and bulk exports.
 */
const MAP = 'co-sldl-2021';
let s: Stack;
let key: string;
let metricsUrl: string;
const lifecycle = new Lifecycle(createLogger('test', 'silent'));

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY }, ingest: { sources: [MAP] } });
  key = await s.key();
  metricsUrl = (await startMetricsServer(0, '127.0.0.1', lifecycle, createLogger('test', 'silent'))).url;
}, scaled(60_000));
afterAll(async () => {
  await lifecycle.stop('done');
  await s?.stop();
});

/** The value of the sample lines carrying `labels` (`name{labels} value`, or `name value` without labels), 0 when absent. */
async function sample(name: string, labels: Record<string, string>): Promise<number> {
  return (await found(name, labels)) ?? 0;
}

/**
 * The sum of the sample lines carrying `labels` (every series of `name` whose labels include
 * them: `{status: '401'}` counts refusals on every route), undefined when none does.
 */
async function found(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = await (await fetch(metricsUrl)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (wanted.length === 0 && line.startsWith(`${name} `)) return Number(line.slice(name.length + 1));
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    const have = inner.split(',');
    if (wanted.every((w) => have.includes(w))) sum = (sum ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

describe('GET /metrics', () => {
  it('is Prometheus text on its own listener, and nothing else is served there', async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(METRICS.contentType);
    expect(await res.text()).toMatch(/^# HELP civic_/m);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
  });

  it('counts HTTP requests by route template and status, never by the slug asked', async () => {
    const contest = (await get(`${s.url}/v1/contests?state=co`, key)).body.data[0].slug as string;
    const route = { method: 'GET', route: '/v1/contests/:slug', status: '200' };
    const before = await sample('civic_http_request_duration_seconds_count', route);
    expect((await get(`${s.url}/v1/contests/${contest}`, key)).status).toBe(200);
    await expect.poll(() => sample('civic_http_request_duration_seconds_count', route)).toBe(before + 1);
    const text = await (await fetch(metricsUrl)).text();
    expect(text).not.toContain(contest);
    const refused = await sample('civic_http_request_duration_seconds_count', { status: '401' });
    expect((await get(`${s.url}/v1/contests/${contest}`)).status).toBe(401);
    await expect
      .poll(() => sample('civic_http_request_duration_seconds_count', { status: '401' }))
      .toBeGreaterThan(refused);
  });

  it('times gRPC calls by method and status code, and counts cache hits and misses', async () => {
    const point = '/v1/districts_by_point?lat=39.7392&lng=-104.9903';
    const calls = await sample('civic_rpc_duration_seconds_count', { method: 'DistrictsAtPoints', code: 'OK' });
    const misses = await sample('civic_cache_lookups_total', { cache: 'response', outcome: 'miss' });
    const hits = await sample('civic_cache_lookups_total', { cache: 'response', outcome: 'hit' });
    expect((await get(`${s.url}${point}&date=2023-02-03`, key)).status).toBe(200);
    expect((await get(`${s.url}${point}&date=2023-02-03`, key)).status).toBe(200);
    expect(await sample('civic_rpc_duration_seconds_count', { method: 'DistrictsAtPoints', code: 'OK' })).toBe(
      calls + 1,
    );
    expect(await sample('civic_cache_lookups_total', { cache: 'response', outcome: 'miss' })).toBe(misses + 1);
    expect(await sample('civic_cache_lookups_total', { cache: 'response', outcome: 'hit' })).toBe(hits + 1);
    const notFound = await sample('civic_rpc_duration_seconds_count', { code: 'NOT_FOUND' });
    expect((await get(`${s.url}/v1/regions/region:nowhere`, key)).status).toBe(404);
    await expect
      .poll(() => sample('civic_rpc_duration_seconds_count', { code: 'NOT_FOUND' }))
      .toBeGreaterThan(notFound);
  });

  it('answers a point never asked before, in districts asked about, from the ballot memo, without calling the graph, until the data changes', async () => {
    const ballot = (lat: number, lng: number) =>
      get(`${s.url}/v1/ballot?lat=${lat}&lng=${lng}&date=${NEXT_GENERAL}`, key);
    const graphCalls = () => sample('civic_rpc_duration_seconds_count', { method: 'Ballots', code: 'OK' });
    const first = await ballot(39.7392, -104.9903);
    expect(first.status).toBe(200);
    const calls = await graphCalls();
    const hits = await sample('civic_cache_lookups_total', { cache: 'ballot', outcome: 'hit' });
    // Another point of Denver: a response-cache miss, the same districts, the same contests.
    const second = await ballot(39.7452, -104.9851);
    expect(second.headers.get('civic-cache')).toBe('miss');
    expect(second.body.regions).toEqual(first.body.regions);
    expect(second.body.contests).toEqual(first.body.contests);
    expect(second.body.point).toEqual({ lat: 39.7452, lng: -104.9851 });
    expect(await graphCalls()).toBe(calls);
    expect(await sample('civic_cache_lookups_total', { cache: 'ballot', outcome: 'hit' })).toBe(hits + 1);
    // Any data change empties the memo: the next new point of Denver asks the graph again.
    await s.bus.publish(
      makeEvent({
        env: s.env,
        kind: 'contest',
        verb: 'updated',
        slugs: ['contest:elsewhere'],
        changedFields: ['date'],
        version: '2',
      }),
    );
    await expect
      .poll(async () => {
        const third = await ballot(39.7301 + Math.random() / 1000, -104.9702);
        expect(third.body.contests).toEqual(first.body.contests);
        return graphCalls();
      })
      .toBeGreaterThan(calls);
  });

  it('times an ingest import from the fetch to the import served', async () => {
    const before = await sample('civic_lag_seconds_count', { stage: 'ingest' });
    const waited = await sample('civic_lag_seconds_sum', { stage: 'ingest' });
    const [run] = await s.ingest!.ingest.run([MAP]);
    expect(run).toMatchObject({ source: MAP, status: 'changed' });
    expect(await sample('civic_lag_seconds_count', { stage: 'ingest' })).toBe(before + 1);
    expect(await sample('civic_lag_seconds_sum', { stage: 'ingest' })).toBeGreaterThan(waited);
  });

  it('times a bulk export from queued to published, and reports the age of the newest and the wait of the oldest queued', async () => {
    const enterprise = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 10_000 });
    const before = await sample('civic_lag_seconds_count', { stage: 'export' });
    const asked = await send(`${s.url}/v1/exports`, 'POST', enterprise, { kinds: ['party'] });
    expect(asked.status).toBe(202);
    await vi.waitFor(
      async () => {
        const job = (await get(`${s.url}/v1/exports/${asked.body.id}`, enterprise)).body;
        if (job.status !== 'succeeded') throw new Error(`export is ${job.status}`);
      },
      { timeout: scaled(30_000), interval: 100 },
    );
    // The month's scheduled export may finish meanwhile: at least this one was timed.
    expect(await sample('civic_lag_seconds_count', { stage: 'export' })).toBeGreaterThanOrEqual(before + 1);
    const age = await found('civic_export_newest_age_seconds', { cadence: 'on_demand' });
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60);
    await expect.poll(() => found('civic_export_oldest_queued_seconds', {})).toBe(0);
  });
});
