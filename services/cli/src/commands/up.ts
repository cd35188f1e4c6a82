import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { startAuthService, type AuthService } from '@civicgraph/auth';
import { defaultMaps, startGeoService } from '@civicgraph/geo';
import { readGatewayConfig, startGateway } from '@civicgraph/gateway';
import { readGraphConfig, startGraphService, surroundingGenerals } from '@civicgraph/graph';
import { startResultsService } from '@civicgraph/results';
import { startWebhooksService } from '@civicgraph/webhooks';
import { openBus, todayUtc, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { CliConfig } from '../config.js';
import { loadDemoIfEmpty } from './demo-data.js';

/** Label of the key `up` mints; the previous one is revoked on each start. */
export const SANDBOX_LABEL = 'sandbox (civicgraph up)';

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

export interface Running {
  url: string;
  key: string;
  /** The demo's next general election day: the date the banner's ballot example asks about. */
  electionDay: string;
}

/** Starts auth, geo, graph, results and the gateway in this process, on loopback, with demo data. */
export async function up(config: CliConfig, lifecycle: Lifecycle, log: Logger): Promise<Running> {
  const files = defaultMaps(config.sharedData);
  const bus = await openBus(config.natsUrl, 'civicgraph-up', log);
  lifecycle.defer('event bus', () => bus.close());
  const auth = await startAuthService(
    { host: '127.0.0.1', port: 0, storePath: join(config.dataDir, 'auth'), pepper: config.keyPepper },
    { bus, lifecycle, log: log.child({ service: 'auth' }) },
  );
  const geo = await startGeoService(
    { host: '127.0.0.1', port: 0, files, populationCsv: populationCsv(config.sharedData),
      storePath: join(config.dataDir, 'geo'), storePollMs: 1_000, h3Resolution: 5, geocoder: { kind: 'embedded' }, natsUrl: config.natsUrl, env: config.env,
      logLevel: config.logLevel },
    { bus, lifecycle, log: log.child({ service: 'geo' }) },
  );
  // The graph service's own reader, so its settings not named here keep their defaults.
  const graph = await startGraphService(
    readGraphConfig({ GRAPH_GRPC_PORT: '0', CIVIC_DATA_DIR: config.dataDir, CIVIC_ENV: config.env, LOG_LEVEL: config.logLevel }),
    { bus, lifecycle, log: log.child({ service: 'graph' }) },
  );
  await loadDemoIfEmpty(graph, files, log.child({ service: 'graph' }));
  const results = await startResultsService({ host: '127.0.0.1', port: 0, serves: config.env }, { store: graph.store, lifecycle, log: log.child({ service: 'results' }) });
  const webhooks = await startWebhooksService(
    { host: '127.0.0.1', port: 0, storePath: join(config.dataDir, 'webhooks'), env: config.env },
    { bus, lifecycle, log: log.child({ service: 'webhooks' }) },
  );
  // The gateway's own reader, so its settings not named here keep their defaults.
  const gatewayEnv = { PORT: String(config.port), HOST: config.host, GEO_ADDR: geo.address, AUTH_ADDR: auth.address,
    GRAPH_ADDR: graph.address, RESULTS_ADDR: results.address, WEBHOOKS_ADDR: webhooks.address,
    CIVIC_ENV: config.env, LOG_LEVEL: config.logLevel, ...(config.natsUrl === undefined ? {} : { NATS_URL: config.natsUrl }) };
  const gateway = await startGateway(readGatewayConfig(gatewayEnv), { bus, lifecycle, log: log.child({ service: 'gateway' }) });
  return { url: gateway.url, key: await mintSandboxKey(auth, config.env), electionDay: surroundingGenerals(todayUtc()).next };
}

/** The banner `up` prints: where it listens, a working key and a curl line. */
export function banner({ url, key, electionDay }: Running): string {
  return [
    `civicgraph is up at ${url}`,
    key.startsWith('cg_live_') ? `live key (live environment, build plan): ${key}` : `sandbox key (test environment, build plan): ${key}`,
    'try it:',
    `  curl -H "Authorization: Bearer ${key}" "${url}/v1/ballot?lat=39.7392&lng=-104.9903&date=${electionDay}"`,
    `API reference: ${url}/docs   OpenAPI: ${url}/v1/openapi.json`,
    `GraphiQL: ${url}/graphql   (stop with Ctrl-C)`,
    '',
  ].join('\n');
}
