import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { startAuthService, type AuthService } from '@civicgraph/auth';
import { readGeoConfig, startGeoService } from '@civicgraph/geo';
import { readGatewayConfig, startGateway } from '@civicgraph/gateway';
import { readGraphConfig, startGraphService, surroundingGenerals } from '@civicgraph/graph';
import { SOURCES, startIngestService, type RunRecord } from '@civicgraph/ingest';
import { readResultsConfig, startResultsService } from '@civicgraph/results';
import { startWebhooksService } from '@civicgraph/webhooks';
import { openBus, todayUtc, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { CliConfig } from '../config.js';
import { checkDataKind, loadDemoIfEmpty } from './demo-data.js';
import { sourceProgress } from './source-progress.js';
import { sourcesOrigin } from './sources-origin.js';

/** Label of the key `up` mints; the previous one is revoked on each start. */
export const SANDBOX_LABEL = 'sandbox (civicgraph up)';

/** The day the banner's ballot example asks about: the 2024 general, which the public sources certify. */
export const REAL_BALLOT_DAY = '2024-11-05';

/** How often the ingest service looks for due sources. */
const INGEST_TICK_MS = 60_000;

/** The boundary sources: with `--demo`, the synthetic elections are laid over these. */
const MAP_SOURCES = SOURCES.filter((s) => s.import.kind === 'boundaries').map((s) => s.id);

function populationCsv(sharedData: string | undefined): string | undefined {
  const path = sharedData === undefined ? undefined : join(sharedData, 'population/derived/county-population-v2023.csv');
  return path !== undefined && existsSync(path) ? path : undefined;
}

/** Revokes the previous sandbox key and issues a fresh one (only hashes are kept). */
async function mintSandboxKey(auth: AuthService, env: 'test' | 'live'): Promise<string> {
  for (const record of await auth.keys.list()) {
    if (record.label === SANDBOX_LABEL && record.revokedAt === '') await auth.keys.revoke(record.keyId);
  }
  // A key of the environment this deployment serves: the gateway refuses the other one.
  const issued = await auth.keys.create({
    environment: env === 'live' ? Environment.ENVIRONMENT_LIVE : Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_BUILD,
    label: SANDBOX_LABEL,
    pinnedVersion: '',
  });
  return issued.key;
}

export interface UpOptions {
  /** Serve the synthetic demo elections (over the real maps) instead of the public sources. */
  demo: boolean;
}

export interface Running {
  url: string;
  key: string;
  /** The day the banner's ballot example asks about. */
  electionDay: string;
  demo: boolean;
  /** Sources that could not be loaded, with why. */
  failed: { id: string; error: string }[];
  /** Whether the admin API is on (CIVIC_ADMIN_TOKEN set). */
  admin: boolean;
}

/**
 * Starts every service in this process, on loopback. The data is real: on the first start
 * the ingest service loads every public source (from the shared data folder when it is
 * beside the checkout), showing its progress, before the banner; later starts reuse the
 * store and refresh on schedule. `--demo` serves synthetic elections instead, labelled so
 * in every answer's provenance.
 */
export async function up(config: CliConfig, lifecycle: Lifecycle, log: Logger, options: UpOptions = { demo: false }): Promise<Running> {
  const bus = await openBus(config.natsUrl, 'civicgraph-up', log, join(config.dataDir, 'bus'));
  lifecycle.defer('event bus', () => bus.close());
  const auth = await startAuthService(
    { host: '127.0.0.1', port: 0, storePath: join(config.dataDir, 'auth'), pepper: config.keyPepper },
    { bus, lifecycle, log: log.child({ service: 'auth' }) },
  );
  // The geo service's own reader too: its store, index snapshot and defaults are its rules.
  const population = populationCsv(config.sharedData);
  const geo = await startGeoService(
    readGeoConfig({
      GEO_GRPC_PORT: '0', CIVIC_DATA_DIR: config.dataDir, CIVIC_ENV: config.env, LOG_LEVEL: config.logLevel,
      ...(population === undefined ? {} : { GEO_POPULATION_CSV: population }),
      ...(config.natsUrl === undefined ? {} : { NATS_URL: config.natsUrl }),
    }),
    { bus, lifecycle, log: log.child({ service: 'geo' }) },
  );
  // The graph service's own reader, so its settings not named here keep their defaults.
  const graph = await startGraphService(
    readGraphConfig({ GRAPH_GRPC_PORT: '0', CIVIC_DATA_DIR: config.dataDir, CIVIC_ENV: config.env, LOG_LEVEL: config.logLevel }),
    { bus, lifecycle, log: log.child({ service: 'graph' }) },
  );
  await checkDataKind(graph, options.demo, config.dataDir);
  // The schedule starts once the first load is done, so the progress shown is that load's alone.
  let progress: ((run: RunRecord) => void) | undefined;
  const ingest = await startIngestService(
    { host: '127.0.0.1', port: 0, dataDir: config.dataDir, graphAddr: graph.address, geoAddr: geo.address, origin: sourcesOrigin(config), schedule: false,
      tickMs: INGEST_TICK_MS, sources: options.demo ? MAP_SOURCES : SOURCES.map((s) => s.id), env: config.env, logLevel: config.logLevel },
    { lifecycle, log: log.child({ service: 'ingest' }), onRun: (run) => progress?.(run) },
  );
  const unloaded = ingest.ingest.list().filter((s) => s.state.status === 'never').map((s) => s.source.id);
  if (unloaded.length > 0) {
    progress = sourceProgress(unloaded.length);
    // Each boundary import answers once geo serves it, so no reload is asked for here.
    await ingest.ingest.run(unloaded);
    progress = undefined;
  }
  ingest.ingest.start(INGEST_TICK_MS);
  if (options.demo) await loadDemoIfEmpty(graph, join(config.dataDir, 'geo'), log.child({ service: 'graph' }));
  // What the first load committed is on the bus before anything that listens to it starts,
  // so the webhook dispatcher and the caches begin from a quiet stream.
  await graph.drainOutbox();
  // The results service's own reader: its store under the data folder, its copy read from the graph over gRPC.
  const results = await startResultsService(
    readResultsConfig({ RESULTS_GRPC_PORT: '0', CIVIC_DATA_DIR: config.dataDir, GRAPH_ADDR: graph.address, CIVIC_ENV: config.env, LOG_LEVEL: config.logLevel }),
    { bus, lifecycle, log: log.child({ service: 'results' }) },
  );
  const webhooks = await startWebhooksService(
    { host: '127.0.0.1', port: 0, storePath: join(config.dataDir, 'webhooks'), env: config.env },
    { bus, lifecycle, log: log.child({ service: 'webhooks' }) },
  );
  // The gateway's own reader, so its settings not named here keep their defaults.
  const gatewayEnv = { PORT: String(config.port), HOST: config.host, GEO_ADDR: geo.address, AUTH_ADDR: auth.address,
    GRAPH_ADDR: graph.address, RESULTS_ADDR: results.address, WEBHOOKS_ADDR: webhooks.address, INGEST_ADDR: ingest.address,
    CIVIC_ENV: config.env, LOG_LEVEL: config.logLevel, ...(config.natsUrl === undefined ? {} : { NATS_URL: config.natsUrl }),
    ...(config.adminToken === undefined ? {} : { CIVIC_ADMIN_TOKEN: config.adminToken }) };
  const gateway = await startGateway(readGatewayConfig(gatewayEnv), { bus, lifecycle, log: log.child({ service: 'gateway' }) });
  const failed = ingest.ingest.list().filter((s) => s.state.status === 'failed').map((s) => ({ id: s.source.id, error: s.state.error ?? '' }));
  return {
    url: gateway.url,
    key: await mintSandboxKey(auth, config.env),
    electionDay: options.demo ? surroundingGenerals(todayUtc()).next : REAL_BALLOT_DAY,
    demo: options.demo,
    failed,
    admin: config.adminToken !== undefined,
  };
}

/** The banner `up` prints: where it listens, a working key and curl lines that answer real data. */
export function banner({ url, key, electionDay, demo, failed, admin }: Running): string {
  return [
    `civicgraph is up at ${url}`,
    key.startsWith('cg_live_') ? `live key (live environment, build plan): ${key}` : `sandbox key (test environment, build plan): ${key}`,
    demo ? 'data: SYNTHETIC demo elections over real maps (--demo); every answer cites synthetic provenance' : 'data: the public sources (civicgraph sources list), refreshed on schedule',
    ...failed.map((f) => `  not loaded: ${f.id}: ${f.error}`),
    'try it:',
    `  curl -H "Authorization: Bearer ${key}" "${url}/v1/ballot?lat=39.7392&lng=-104.9903&date=${electionDay}"`,
    `  curl -H "Authorization: Bearer ${key}" "${url}/v1/officeholders?region=region:co"`,
    `API reference: ${url}/docs   OpenAPI: ${url}/v1/openapi.json`,
    admin
      ? `admin API: ${url}/admin/v1/keys and /admin/v1/sources, with Authorization: Bearer $CIVIC_ADMIN_TOKEN`
      : 'admin API: off (set CIVIC_ADMIN_TOKEN, at least 32 characters, to turn it on)',
    `GraphiQL: ${url}/graphql   (stop with Ctrl-C)`,
    '',
  ].join('\n');
}
