import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import type { AuthService } from '@civicgraph/auth';
import { surroundingGenerals } from '@civicgraph/graph';
import { SOURCES, type RunRecord } from '@civicgraph/ingest';
import { startMetricsServer, startTracing, todayUtc, type Lifecycle, type Logger } from '@civicgraph/kit';
import { startStack, type PreparedServices } from '@civicgraph/stack';
import type { CliConfig } from '../config.js';
import { lockDataDir } from './data-lock.js';
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
  const path =
    sharedData === undefined ? undefined : join(sharedData, 'population/derived/county-population-v2023.csv');
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
export async function up(
  config: CliConfig,
  lifecycle: Lifecycle,
  log: Logger,
  options: UpOptions = { demo: false },
): Promise<Running> {
  // Before anything opens a store: a second `up` on the folder is refused, not started.
  lifecycle.defer('data folder lock', lockDataDir(config.dataDir));
  // Before any client or server is made, so every one is traced (OTEL_TRACES_EXPORTER).
  await startTracing(config.tracing, lifecycle, log);
  // The progress shown is the first load's alone: the schedule starts once it is done.
  let progress: ((run: RunRecord) => void) | undefined;
  const population = populationCsv(config.sharedData);
  const stack = await startStack({
    dataDir: config.dataDir,
    serves: config.env,
    natsUrl: config.natsUrl,
    localBus: join(config.dataDir, 'bus'),
    name: 'civicgraph-up',
    lifecycle,
    log,
    auth: { pepper: config.keyPepper },
    geo: { populationCsv: population },
    ingest: {
      origin: sourcesOrigin(config),
      tickMs: INGEST_TICK_MS,
      sources: options.demo ? MAP_SOURCES : SOURCES.map((s) => s.id),
      onRun: (run) => progress?.(run),
    },
    webhooks: {},
    gateway: { port: config.port, host: config.host, adminToken: config.adminToken },
    prepare: (services) => firstLoad(services, config, options.demo, log, (p) => (progress = p)),
  });
  if (config.metrics.port !== undefined)
    await startMetricsServer(config.metrics.port, config.metrics.host, lifecycle, log);
  const ingest = stack.ingest!;
  const failed = ingest.ingest
    .list()
    .filter((s) => s.state.status === 'failed')
    .map((s) => ({ id: s.source.id, error: s.state.error ?? '' }));
  return {
    url: stack.url,
    key: await mintSandboxKey(stack.auth, config.env),
    electionDay: options.demo ? surroundingGenerals(todayUtc()).next : REAL_BALLOT_DAY,
    demo: options.demo,
    failed,
    admin: config.adminToken !== undefined,
  };
}

/**
 * Before anything that listens to the bus starts: the data kind is checked, the sources never
 * loaded are loaded (showing progress), the schedule starts, the demo is laid over the maps
 * with `--demo`, and the outbox is drained, so the webhook dispatcher and the caches begin
 * from a quiet stream.
 */
async function firstLoad(
  { graph, ingest }: PreparedServices,
  config: CliConfig,
  demo: boolean,
  log: Logger,
  show: (p: ((run: RunRecord) => void) | undefined) => void,
): Promise<void> {
  await checkDataKind(graph, demo, config.dataDir);
  const sources = ingest!.ingest;
  const unloaded = sources
    .list()
    .filter((s) => s.state.status === 'never')
    .map((s) => s.source.id);
  if (unloaded.length > 0) {
    show(sourceProgress(unloaded.length));
    await sources.run(unloaded);
    // Each boundary import answers once geo serves it, so no reload is asked for here.
    show(undefined);
  }
  sources.start(INGEST_TICK_MS);
  if (demo) await loadDemoIfEmpty(graph, join(config.dataDir, 'geo'), log.child({ service: 'graph' }));
  await graph.drainOutbox();
}

/** The banner `up` prints: where it listens, a working key and curl lines that answer real data. */
export function banner({ url, key, electionDay, demo, failed, admin }: Running): string {
  return [
    `civicgraph is up at ${url}`,
    key.startsWith('cg_live_')
      ? `live key (live environment, build plan): ${key}`
      : `sandbox key (test environment, build plan): ${key}`,
    demo
      ? 'data: SYNTHETIC demo elections over real maps (--demo); every answer cites synthetic provenance'
      : 'data: the public sources (civicgraph sources list), refreshed on schedule',
    ...failed.map((f) => `  not loaded: ${f.id}: ${f.error}`),
    'try it:',
    `  curl -H "Authorization: Bearer ${key}" "${url}/v1/ballot?lat=39.7392&lng=-104.9903&date=${electionDay}"`,
    `  curl -H "Authorization: Bearer ${key}" "${url}/v1/officeholders?region=region:co"`,
    `API reference: ${url}/docs   OpenAPI: ${url}/v1/openapi.json`,
    `ballot explorer: ${url}/explore?q=39.7392,-104.9903&date=${electionDay}   (paste the key above)`,
    admin
      ? `admin API: ${url}/admin/v1/keys and /admin/v1/sources, with Authorization: Bearer $CIVIC_ADMIN_TOKEN`
      : 'admin API: off (set CIVIC_ADMIN_TOKEN, at least 32 characters, to turn it on)',
    `agent (MCP, Streamable HTTP): ${url}/v1/agent   (README: Agent endpoint)`,
    `GraphiQL: ${url}/graphql   (stop with Ctrl-C)`,
    '',
  ].join('\n');
}
