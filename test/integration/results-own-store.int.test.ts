import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultGraphConfig,
  generateDemo,
  startGraphService,
  type GraphService,
  type NodeDoc,
} from '@civicgraph/graph';
import { ResultsServiceClient, type ContestResultsResponse } from '@civicgraph/protos/civic/results/v1/results';
import { startResultsService, type ResultsService } from '@civicgraph/results';
import { clientOptions, createLogger, insecure, Lifecycle, MemoryEventBus } from '@civicgraph/kit';
import { DEMO_REGIONS, DEMO_TODAY } from '../harness/demo.js';
import { principal, rpc } from '../harness/graph-stack.js';

// The results service answers from a store of its own, fed by the graph's events and a
// catch-up over gRPC; it never opens the graph's store.
const log = createLogger('test', process.env['TEST_LOG_LEVEL'] ?? 'silent');
const GOVERNOR = 'contest:co-governor-2026-general';
/** A contest on a later ballot: no results yet. */
const NEXT_GOVERNOR = 'contest:co-governor-2028-general';
const everyone = principal();

const dir = mkdtempSync(join(tmpdir(), 'civic-results-'));
const bus = new MemoryEventBus();
let graphLife: Lifecycle;
let graph: GraphService;

interface Running {
  service: ResultsService;
  client: ResultsServiceClient;
  life: Lifecycle;
}

async function startResults(graphAddr: string): Promise<Running> {
  const life = new Lifecycle(log);
  const service = await startResultsService(
    { host: '127.0.0.1', port: 0, storePath: join(dir, 'results'), graphAddr, env: 'test', serves: 'test' },
    { bus, lifecycle: life, log },
  );
  const client = new ResultsServiceClient(service.address, insecure(), clientOptions(10_000));
  life.defer('client', () => client.close());
  return { service, client, life };
}

const ask = (r: Running, contest: string, who = everyone): Promise<ContestResultsResponse> =>
  rpc(r.client.contestResults, r.client, who, { contest });
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  )) as ServiceError;

beforeAll(async () => {
  graphLife = new Lifecycle(log);
  graph = await startGraphService(
    { ...defaultGraphConfig(dir), port: 0, relayPollMs: 20 },
    { bus, lifecycle: graphLife, log },
  );
  for (const batch of generateDemo({ regions: DEMO_REGIONS, today: DEMO_TODAY })) await graph.writer.apply(batch);
  await graph.drainOutbox();
});
afterAll(async () => {
  await graphLife?.stop('test done');
  await bus.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('results service: its own store', () => {
  let results: Running;
  beforeAll(async () => {
    // Started after the data was imported: it copies what the graph holds before it serves.
    results = await startResults(graph.address);
  });
  afterAll(() => results?.life.stop('test done'));

  it('serves results imported before it started, with their provenance', async () => {
    const res = await ask(results, GOVERNOR);
    expect(res.results.length).toBeGreaterThanOrEqual(2);
    expect(res.certified).toBe(true);
    expect(res.provenance).toEqual(['provenance:demo-synthetic-registry']);
    const stored = (await graph.store.getNodes(res.results.map((r) => r.slug))) as NodeDoc<'result'>[];
    expect(res.results.map((r) => Number(r.votes))).toEqual(
      res.results.map((r) => stored.find((n) => n.slug === r.slug)!.data.votes),
    );
  });

  it("takes a changed result from the graph's event", async () => {
    const before = await ask(results, GOVERNOR);
    const last = before.results.at(-1)!;
    const node = (await graph.store.getNode<'result'>(last.slug))!;
    const votes = Number(before.results[0]!.votes) + 1_000;
    await graph.writer.apply({
      nodes: [{ kind: 'result', slug: node.slug, state: node.state, tier: node.tier, data: { ...node.data, votes } }],
      edges: [],
    });
    await graph.drainOutbox();
    // The row that had the fewest votes now has the most: the answer is re-ordered too.
    await expect
      .poll(async () => (await ask(results, GOVERNOR)).results[0])
      .toMatchObject({ slug: last.slug, votes: String(votes) });
  });

  it("answers NOT_FOUND for a contest outside the caller's scope, with results or without", async () => {
    const delaware = principal({ states: ['de'] });
    expect((await failure(ask(results, GOVERNOR, delaware))).code).toBe(status.NOT_FOUND);
    expect((await failure(ask(results, NEXT_GOVERNOR, delaware))).code).toBe(status.NOT_FOUND);
    expect((await failure(ask(results, GOVERNOR, principal({ tiers: ['county'] })))).code).toBe(status.NOT_FOUND);
    expect(
      (await ask(results, GOVERNOR, principal({ states: ['co'], tiers: ['state'] }))).results.length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('answers a contest in scope without results as empty, and one that does not exist as NOT_FOUND', async () => {
    expect(await ask(results, NEXT_GOVERNOR)).toEqual({
      contest: NEXT_GOVERNOR,
      results: [],
      certified: false,
      provenance: [],
    });
    const missing = await failure(ask(results, 'contest:co-nowhere-2026-general'));
    expect(missing.code).toBe(status.NOT_FOUND);
    expect(missing.metadata.get('civic-error-field')[0]).toBe('contest');
  });
});

describe('results service: after a restart', () => {
  it('answers from its own store while the graph service is down', async () => {
    const first = await startResults(graph.address);
    const before = await ask(first, GOVERNOR);
    await first.life.stop('restart');
    const graphAddress = graph.address;
    await graphLife.stop('graph down');
    const again = await startResults(graphAddress);
    try {
      expect(await ask(again, GOVERNOR)).toEqual(before);
      expect((await failure(ask(again, GOVERNOR, principal({ states: ['de'] })))).code).toBe(status.NOT_FOUND);
    } finally {
      await again.life.stop('test done');
    }
  });
});
