import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment, Plan, type Entitlements, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { GraphServiceClient } from '@civicgraph/protos/civic/graph/v1/graph';
import { ResultsServiceClient } from '@civicgraph/protos/civic/results/v1/results';
import type { CallOptions, Metadata, ServiceError } from '@grpc/grpc-js';
import { defaultGraphConfig, startGraphService, type GraphService } from '@civicgraph/graph';
import { defaultResultsConfig, startResultsService, type ResultsService } from '@civicgraph/results';
import { clientOptions, createLogger, insecure, Lifecycle, MemoryEventBus, principalMetadata } from '@civicgraph/kit';

/** The graph and results services on loopback over a fresh embedded store, with gRPC clients. */
export interface GraphStack {
  graph: GraphService;
  bus: MemoryEventBus;
  graphClient: GraphServiceClient;
  resultsClient: ResultsServiceClient;
  /** The results service: `catchUp()` waits until it holds what was loaded into the graph after it started. */
  results: ResultsService;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startGraphStack(): Promise<GraphStack> {
  const log = createLogger('test', process.env['TEST_LOG_LEVEL'] ?? 'silent');
  const lifecycle = new Lifecycle(log);
  const dataDir = mkdtempSync(join(tmpdir(), 'civic-graph-'));
  lifecycle.defer('temp dir', () => rmSync(dataDir, { recursive: true, force: true }));
  const bus = new MemoryEventBus();
  lifecycle.defer('bus', () => bus.close());
  // Two services of the stack, not the whole of it: these suites ask the graph and results over gRPC alone.
  const graph = await startGraphService(
    { ...defaultGraphConfig(dataDir), port: 0, relayPollMs: 20 },
    { bus, lifecycle, log },
  );
  const results = await startResultsService(
    { ...defaultResultsConfig(dataDir, graph.address), port: 0 },
    { bus, lifecycle, log },
  );
  const graphClient = new GraphServiceClient(graph.address, insecure(), clientOptions(10_000));
  const resultsClient = new ResultsServiceClient(results.address, insecure(), clientOptions(10_000));
  lifecycle.defer('clients', () => {
    graphClient.close();
    resultsClient.close();
  });
  return { graph, bus, graphClient, resultsClient, results, dataDir, stop: () => lifecycle.stop('test done') };
}

/** A principal as the auth service would issue it (build plan; entitlements default to geography only). */
export function principal(entitlements: Partial<Entitlements> = {}): Principal {
  return {
    keyId: 'key_test',
    environment: Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_BUILD,
    pinnedVersion: '2026-11-01',
    rateLimitPerMinute: 600,
    entitlements: { contact: false, geography: true, states: [], tiers: [], ...entitlements },
  };
}

/** A ts-proto client method in its last overload, (request, metadata, options, callback): the one TypeScript infers from. */
type Unary<Req, Res> = (
  req: Req,
  md: Metadata,
  options: Partial<CallOptions>,
  cb: (err: ServiceError | null, res: Res) => void,
) => unknown;

/** Promise form of a client call as `who`. */
export function rpc<Req, Res>(method: Unary<Req, Res>, client: object, who: Principal, req: Req): Promise<Res> {
  return new Promise((resolve, reject) =>
    method.call(client, req, principalMetadata(who), {}, (err, res) => (err ? reject(err) : resolve(res))),
  );
}
