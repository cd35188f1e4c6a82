import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment, Plan, type CreateKeyRequest } from '@civicgraph/protos/civic/auth/v1/auth';
import { startAuthService, type AuthService } from '@civicgraph/auth';
import { DEFAULT_H3_RESOLUTION, startGeoService, type BoundaryFile, type GeoService } from '@civicgraph/geo';
import { readGatewayConfig, startGateway, type Gateway } from '@civicgraph/gateway';
import { generateDemo, readGraphConfig, startGraphService, type DemoRegion, type GraphService } from '@civicgraph/graph';
import { startResultsService, type ResultsService } from '@civicgraph/results';
import { startWebhooksService, type WebhooksService } from '@civicgraph/webhooks';
import { startIngestService, type IngestService } from '@civicgraph/ingest';
import { createLogger, Lifecycle, MemoryEventBus, NatsEventBus, type EventBus, type VersionRegistry } from '@civicgraph/kit';
import { SHARED_DATA_DIR } from '@civicgraph/kit';

/** The shared public data folder (sibling of the repository). */
export const SHARED_DATA = SHARED_DATA_DIR;
export const POPULATION_CSV = join(SHARED_DATA, 'population/derived/county-population-v2023.csv');

export interface StackOptions {
  files?: BoundaryFile[];
  /** The stack's CIVIC_DATA_DIR (kept afterwards); default: a temporary folder removed at stop. */
  dataDir?: string;
  natsUrl?: string;
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
  /** Further gateway settings (environment variables), e.g. RATE_LIMIT_REDIS_URL. */
  gatewayEnv?: Record<string, string>;
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
   * and bus connection), with `env` over the first one's settings.
   */
  addGateway(env?: Record<string, string>): Promise<Gateway>;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const log = createLogger('test', process.env['TEST_LOG_LEVEL'] ?? 'silent');
  const lifecycle = new Lifecycle(log);
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'civic-stack-'));
  if (options.dataDir === undefined) lifecycle.defer('temp dir', () => rmSync(dir, { recursive: true, force: true }));
  const env = options.env ?? 'test';
  const bus = options.natsUrl === undefined ? new MemoryEventBus() : await NatsEventBus.connect({ url: options.natsUrl, logger: log });
  lifecycle.defer('bus', () => bus.close());
  const auth = await startAuthService({ host: '127.0.0.1', port: 0, storePath: join(dir, 'auth'), logLevel: 'silent' }, { bus, subjectWords: { test: env, live: env }, lifecycle, log });
  const geo = await startGeoService(
    { host: '127.0.0.1', port: 0, files: options.files ?? [], populationCsv: POPULATION_CSV, h3Resolution: DEFAULT_H3_RESOLUTION,
      storePath: join(dir, 'geo'), storePollMs: 100, geocoder: { kind: 'embedded' },
      natsUrl: options.natsUrl, env: env as 'test', logLevel: 'silent' },
    { bus, lifecycle, log },
  );
  const serves = options.serves ?? 'test';
  const graph = await startGraphService(
    { ...readGraphConfig({ GRAPH_GRPC_PORT: '0', CIVIC_DATA_DIR: dir, LOG_LEVEL: 'silent', GRAPH_RELAY_POLL_MS: '20', CIVIC_ENV: serves }), env: env as 'test' },
    { bus, lifecycle, log },
  );
  if (options.demo !== undefined) {
    for (const batch of generateDemo(options.demo)) await graph.writer.apply(batch);
  }
  const results = await startResultsService({ host: '127.0.0.1', port: 0, storePath: join(dir, 'results'), graphAddr: graph.address, env, serves }, { bus, lifecycle, log });
  const webhooks = options.webhooks === true
    ? await startWebhooksService({ host: '127.0.0.1', port: 0, storePath: join(dir, 'webhooks'), env, timeoutMs: 3_000 }, { bus, lifecycle, log })
    : undefined;
  const ingest = options.ingest === undefined
    ? undefined
    : await startIngestService(
      { host: '127.0.0.1', port: 0, dataDir: dir, graphAddr: graph.address, geoAddr: geo.address, origin: { kind: 'folder', path: SHARED_DATA }, schedule: false,
        tickMs: 60_000, sources: options.ingest.sources, env: serves, logLevel: 'silent' },
      { lifecycle, log },
    );
  // The gateway's own reader, so settings not named here keep their defaults. The env word
  // is set after reading: NATS-backed suites use a random one to keep their subjects apart.
  const gatewayEnv = { PORT: '0', HOST: '127.0.0.1', GEO_ADDR: options.geoAddr ?? geo.address, AUTH_ADDR: auth.address,
    GRAPH_ADDR: options.graphAddr ?? graph.address, RESULTS_ADDR: results.address,
    AUTH_CACHE_MS: String(options.authCacheMs ?? 5_000), UPSTREAM_DEADLINE_MS: '2000', LOG_LEVEL: 'silent', CIVIC_ENV: serves,
    ...(options.adminToken === undefined ? {} : { CIVIC_ADMIN_TOKEN: options.adminToken }),
    ...(webhooks === undefined ? {} : { WEBHOOKS_ADDR: webhooks.address }),
    ...(ingest === undefined ? {} : { INGEST_ADDR: ingest.address }),
    ...options.gatewayEnv,
    ...(options.natsUrl === undefined ? {} : { NATS_URL: options.natsUrl }), };
  const gatewayOf = async (gatewayBus: EventBus, overrides: Record<string, string> = {}) =>
    startGateway({ ...readGatewayConfig({ ...gatewayEnv, ...overrides }), env: env as 'test' },
      { bus: gatewayBus, lifecycle, log, ...(options.versions === undefined ? {} : { versions: options.versions }) });
  const gateway = await gatewayOf(bus);
  const addGateway = async (overrides: Record<string, string> = {}) => {
    // A gateway of its own process would have its own bus connection; with NATS it gets one.
    if (options.natsUrl === undefined) return gatewayOf(bus, overrides);
    const own = await NatsEventBus.connect({ url: options.natsUrl, logger: log });
    lifecycle.defer('second gateway bus', () => own.close());
    return gatewayOf(own, overrides);
  };
  const environment = serves === 'live' ? Environment.ENVIRONMENT_LIVE : Environment.ENVIRONMENT_TEST;
  const key = async (overrides: Partial<CreateKeyRequest> = {}) =>
    (await auth.keys.create({ environment, plan: Plan.PLAN_BUILD, label: 'test', pinnedVersion: '', ...overrides })).key;
  return { url: gateway.url, dataDir: dir, auth, geo, graph, resultsAddress: results.address, results, gateway, webhooks, ingest, bus, env, serves, key, addGateway, stop: () => lifecycle.stop('test done') };
}

/** GET with a bearer key; returns status, headers and the parsed body (if any). */
export async function get(url: string, key?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }), ...headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any), text };
}

/** Any method with a bearer key and a JSON body (a string is sent as it is); returns status, headers and the parsed body (if any). */
export async function send(url: string, method: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any) };
}

/** POST a GraphQL query. */
export async function graphql(url: string, key: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

export const DENVER = { lat: 39.7392, lng: -104.9903 };
