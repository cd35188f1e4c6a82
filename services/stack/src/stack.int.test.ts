import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { createLogger, Lifecycle } from '@civicgraph/kit';
import { startStack, type Stack } from './stack.js';

describe('startStack', () => {
  const log = createLogger('test', process.env['TEST_LOG_LEVEL'] ?? 'silent');
  const lifecycle = new Lifecycle(log);
  const dir = mkdtempSync(join(tmpdir(), 'civic-startstack-'));
  let stack: Stack;
  let prepared: string[] = [];

  beforeAll(async () => {
    stack = await startStack({
      dataDir: dir,
      serves: 'test',
      lifecycle,
      log,
      ingest: { sources: [] },
      webhooks: {},
      gateway: { authCacheMs: 0 },
      prepare: async ({ graph, ingest }) => {
        prepared = [graph.address, ingest?.address ?? 'no ingest'];
      },
    });
  });

  afterAll(async () => {
    await lifecycle.stop('test done');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts every service on its own loopback port and points the gateway at each', () => {
    const addresses = [
      stack.auth.address,
      stack.geo.address,
      stack.graph.address,
      stack.results.address,
      stack.webhooks!.address,
      stack.ingest!.address,
    ];
    expect(new Set(addresses).size).toBe(6);
    expect(stack.gatewayConfig).toMatchObject({
      geoAddr: stack.geo.address,
      authAddr: stack.auth.address,
      graphAddr: stack.graph.address,
      resultsAddr: stack.results.address,
      webhooksAddr: stack.webhooks!.address,
      ingestAddr: stack.ingest!.address,
      authCacheMs: 0,
      serves: 'test',
    });
    expect(stack.gatewayConfig.port).toBe(0);
  });

  it('runs prepare once graph and ingest are up, before the gateway', () => {
    expect(prepared).toEqual([stack.graph.address, stack.ingest!.address]);
  });

  it('answers over HTTP with a key the auth service issued', async () => {
    const { key } = await stack.auth.keys.create({
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_BUILD,
      label: 'test',
      pinnedVersion: '',
    });
    const res = await fetch(`${stack.url}/v1/districts_by_point?lat=39.7392&lng=-104.9903`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { slug: string }[] }).data.map((r) => r.slug)).toContain('region:co');
  });

  it('adds a gateway in front of the same services with its own settings', async () => {
    const second = await stack.addGateway({ authCacheMs: 1_000 });
    expect(second.url).not.toBe(stack.url);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  });
});
