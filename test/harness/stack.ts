import { constants, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment, Plan, type CreateKeyRequest } from '@civicgraph/protos/civic/auth/v1/auth';
import type { AuthService } from '@civicgraph/auth';
import type { BoundaryFile, GeoService } from '@civicgraph/geo';
import type { Gateway, GatewayConfig } from '@civicgraph/gateway';
import { generateDemo, type DemoRegion, type GraphService } from '@civicgraph/graph';
import type { ResultsService } from '@civicgraph/results';
import type { WebhooksService } from '@civicgraph/webhooks';
import type { IngestService } from '@civicgraph/ingest';
import { startStack as startWholeStack } from '@civicgraph/stack';
import { createLogger, Lifecycle, SHARED_DATA_DIR, type EventBus, type VersionRegistry } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';

/** The shared public data folder (sibling of the repository). */
export const SHARED_DATA = SHARED_DATA_DIR;
export const POPULATION_CSV = join(SHARED_DATA, 'population/derived/county-population-v2023.csv');

export interface StackOptions {
  files?: BoundaryFile[];
  /** The stack's CIVIC_DATA_DIR (kept afterwards); default: a temporary folder removed at stop. */
  dataDir?: string;
  /** A prepared data folder (e.g. `preparedMaps`) copied into the data folder before the services start. */
  seed?: string;
  natsUrl?: string;
  /** The word in event subjects; default `test`. NATS-backed suites use a random one to keep their subjects apart. */
  env?: string;
  authCacheMs?: number;
  /** Point the gateway at this geo address instead of the started geo service. */
  geoAddr?: string;
  /** Point the gateway at this graph address instead of the started graph service. */
  graphAddr?: string;
  /** Loads the synthetic demo graph for these regions, as of `today`, before the gateway starts. */
  demo?: { regions: DemoRegion[]; today: string };
  /** The gateway's API versions (tests register dated transforms). */
  versions?: VersionRegistry;
  /** The environment this deployment serves (CIVIC_ENV); default test. */
  serves?: 'test' | 'live';
  /** CIVIC_ADMIN_TOKEN of the gateway; default none (no admin API). */
  adminToken?: string;
  /** Further gateway settings over its defaults, e.g. `rateLimitRedisUrl`. */
  gateway?: Partial<GatewayConfig>;
  /** Starts the webhooks service (dispatcher included) and points the gateway at it. */
  webhooks?: boolean;
  /** Starts the ingest service for these registry sources (no schedule; the shared data folder as its mirror) and points the gateway at it. */
  ingest?: { sources: string[] };
}

/** A whole civicgraph in this process: real gRPC servers on loopback, a real HTTP gateway. */
export interface Stack {
  url: string;
  /** The stack's CIVIC_DATA_DIR: `auth/` and `geo/` stores live here. */
  dataDir: string;
  auth: AuthService;
  geo: GeoService;
  graph: GraphService;
  /** The results service's gRPC address. */
  resultsAddress: string;
  /** The results service, for waiting until it holds results loaded after it started (`catchUp`). */
  results: ResultsService;
  gateway: Gateway;
  /** The webhooks service, when started. */
  webhooks: WebhooksService | undefined;
  /** The ingest service, when started. */
  ingest: IngestService | undefined;
  bus: EventBus;
  env: string;
  /** The environment the deployment serves. */
  serves: 'test' | 'live';
  key(overrides?: Partial<CreateKeyRequest>): Promise<string>;
  /**
   * Starts one more gateway in front of the same services (its own caches, limiter client
   * and bus connection), with `overrides` over the first one's settings.
   */
  addGateway(overrides?: Partial<GatewayConfig>): Promise<Gateway>;
  stop(): Promise<void>;
}

/** The whole stack (services/stack) over a temporary data folder, with the test options as its settings. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const log = createLogger('test', process.env['TEST_LOG_LEVEL'] ?? 'silent');
  const lifecycle = new Lifecycle(log);
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'civic-stack-'));
  if (options.dataDir === undefined) lifecycle.defer('temp dir', () => rmSync(dir, { recursive: true, force: true }));
  const env = options.env ?? 'test';
  const serves = options.serves ?? 'test';
  const demo = options.demo;
  try {
    // A copy, not links: the services write their stores in place, and the seed is shared.
    if (options.seed !== undefined) cpSync(options.seed, dir, { recursive: true, mode: constants.COPYFILE_FICLONE });
    const stack = await startWholeStack({
      dataDir: dir,
      serves,
      subjectWord: env,
      natsUrl: options.natsUrl,
      lifecycle,
      log,
      geo: { files: options.files ?? [], populationCsv: POPULATION_CSV, storePollMs: 100 },
      graph: { relayPollMs: 20 },
      ...(options.ingest === undefined
        ? {}
        : { ingest: { origin: { kind: 'folder' as const, path: SHARED_DATA }, sources: options.ingest.sources } }),
      ...(options.webhooks === true ? { webhooks: { timeoutMs: scaled(3_000) } } : {}),
      gateway: {
        authCacheMs: options.authCacheMs ?? 5_000,
        upstreamDeadlineMs: scaled(2_000),
        adminToken: options.adminToken,
        ...(options.geoAddr === undefined ? {} : { geoAddr: options.geoAddr }),
        ...(options.graphAddr === undefined ? {} : { graphAddr: options.graphAddr }),
        ...options.gateway,
      },
      ...(options.versions === undefined ? {} : { versions: options.versions }),
      ...(demo === undefined
        ? {}
        : {
            prepare: async ({ graph }) => {
              for (const batch of generateDemo(demo)) await graph.writer.apply(batch);
            },
          }),
    });
    const environment = serves === 'live' ? Environment.ENVIRONMENT_LIVE : Environment.ENVIRONMENT_TEST;
    const key = async (overrides: Partial<CreateKeyRequest> = {}) =>
      (
        await stack.auth.keys.create({
          environment,
          plan: Plan.PLAN_BUILD,
          label: 'test',
          pinnedVersion: '',
          ...overrides,
        })
      ).key;
    const { url, auth, geo, graph, gateway, webhooks, ingest, bus, addGateway } = stack;
    return {
      url,
      dataDir: dir,
      auth,
      geo,
      graph,
      resultsAddress: stack.results.address,
      results: stack.results,
      gateway,
      webhooks,
      ingest,
      bus,
      env,
      serves,
      key,
      addGateway,
      stop: () => lifecycle.stop('test done'),
    };
  } catch (err) {
    await lifecycle.stop('stack failed to start');
    throw err;
  }
}

// The HTTP helpers live apart so that suites driving a `civicgraph` process over HTTP do not
// load every service's sources (seconds per file) just to make requests.
export { DENVER, get, graphql, send } from './http.js';
