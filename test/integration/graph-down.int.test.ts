import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGraphConfig, generateDemo, startGraphService } from '@civicgraph/graph';
import { createLogger, Lifecycle, MemoryEventBus } from '@civicgraph/kit';
import { DEMO_REGIONS, DEMO_TODAY, NEXT_GENERAL } from '../harness/demo.js';
import { DENVER, get, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

const REGIONS = DEMO_REGIONS.filter((r) => r.state === 'co');
const log = createLogger('test', 'silent');
const dataDir = mkdtempSync(join(tmpdir(), 'civic-graph-down-'));

/** A graph service of its own (same store, same port each time), so the test can stop and restart it. */
async function startGraph(port: number) {
  const lifecycle = new Lifecycle(log);
  const bus = new MemoryEventBus();
  const graph = await startGraphService({ ...defaultGraphConfig(dataDir), port }, { bus, lifecycle, log });
  return { graph, stop: () => lifecycle.stop('test') };
}

let stack: Stack;
let key: string;
let graph: Awaited<ReturnType<typeof startGraph>>;
// Each call asks something new, so the gateway's response cache cannot answer it.
let n = 0;
const ballot = () =>
  get(`${stack.url}/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}&min_confidence=0.00${++n}`, key);
const contests = () => get(`${stack.url}/v1/contests?state=co&limit=${++n}`, key);

beforeAll(async () => {
  graph = await startGraph(0);
  for (const batch of generateDemo({ regions: REGIONS, today: DEMO_TODAY })) await graph.graph.writer.apply(batch);
  stack = await startStack({ graphAddr: graph.graph.address });
  key = await stack.key();
}, scaled(60_000));
afterAll(async () => {
  await stack?.stop();
  await graph?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('when the graph service stops', () => {
  it('answers 503 upstream_unavailable with Retry-After while it is down, never a 500, and recovers when it is back', async () => {
    expect((await ballot()).status).toBe(200);
    const port = graph.graph.port;
    await graph.stop();
    for (const res of [await ballot(), await contests()]) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ type: 'upstream_unavailable', status: 503 });
      expect(res.body.detail).toContain('graph');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await get(`${stack.url}/readyz`)).body.upstreams.graph).toBe('not_serving');
    graph = await startGraph(port);
    await expect.poll(async () => (await contests()).status, { timeout: scaled(10_000), interval: 200 }).toBe(200);
    expect((await ballot()).body.contests.length).toBeGreaterThan(0);
  });
});
