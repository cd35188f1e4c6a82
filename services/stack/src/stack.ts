import { defaultAuthConfig, startAuthService, type AuthConfig, type AuthService } from '@civicgraph/auth';
import { defaultGatewayConfig, startGateway, type Gateway, type GatewayConfig } from '@civicgraph/gateway';
import { defaultGeoConfig, startGeoService, type GeoConfig, type GeoService } from '@civicgraph/geo';
import { defaultGraphConfig, startGraphService, type GraphConfig, type GraphService } from '@civicgraph/graph';
import {
  defaultIngestConfig,
  startIngestService,
  type IngestConfig,
  type IngestService,
  type RunRecord,
} from '@civicgraph/ingest';
import {
  defaultResultsConfig,
  startResultsService,
  type ResultsConfig,
  type ResultsService,
} from '@civicgraph/results';
import {
  defaultWebhooksConfig,
  startWebhooksService,
  type WebhooksConfig,
  type WebhooksService,
} from '@civicgraph/webhooks';
import {
  openBus,
  type DeploymentEnvironment,
  type EventBus,
  type Lifecycle,
  type Logger,
  type VersionRegistry,
} from '@civicgraph/kit';

/**
 * A whole civicgraph in one process, as typed settings: each service starts from its own
 * defaults (its settings schema's) and takes the overrides given here. Every gRPC server
 * listens on a free loopback port unless told otherwise; the gateway is pointed at them.
 */
export interface StackConfig {
  /** Folder of every embedded store: `auth/`, `geo/`, `geo-index/`, `graph/`, `webhooks/`, `ingest/`. */
  dataDir: string;
  /** The environment the deployment serves (CIVIC_ENV): which keys it accepts, which data it holds. */
  serves: DeploymentEnvironment;
  /** The word in event subjects, `civic.<word>.…`; default `serves`. Suites sharing one NATS use a word of their own. */
  subjectWord?: string;
  /** NATS JetStream; unset → an in-process bus (kept on disk at `localBus` when given). */
  natsUrl?: string;
  /** Where the in-process bus keeps its stream, when NATS is not used; unset → memory only. */
  localBus?: string;
  /** Named in NATS connections and logs. */
  name?: string;
  lifecycle: Lifecycle;
  log: Logger;
  /** Over the auth service's defaults (the pepper, say). */
  auth?: Partial<AuthConfig>;
  geo?: Partial<GeoConfig>;
  graph?: Partial<GraphConfig>;
  results?: Partial<ResultsConfig>;
  /** Starts the ingest service (no schedule until `ingest.ingest.start`), sharing the graph service's store. */
  ingest?: Partial<IngestConfig> & { onRun?: (run: RunRecord) => void };
  /** Starts the webhooks service (its dispatcher included) and points the gateway at it. */
  webhooks?: Partial<WebhooksConfig>;
  /** Over the gateway's defaults; the upstream addresses default to the services started here. */
  gateway?: Partial<GatewayConfig>;
  /** The gateway's API versions; default the built-in ones. */
  versions?: VersionRegistry;
  /**
   * Runs once auth, geo, graph and ingest are up, before results, webhooks and the gateway
   * start: loads data, so what it commits is on the bus before anything listening starts.
   */
  prepare?: (services: PreparedServices) => Promise<void>;
}

/** The services `prepare` sees. */
export interface PreparedServices {
  auth: AuthService;
  geo: GeoService;
  graph: GraphService;
  ingest: IngestService | undefined;
  bus: EventBus;
}

/** A running stack: every service, and the gateway in front of them. */
export interface Stack extends PreparedServices {
  url: string;
  results: ResultsService;
  webhooks: WebhooksService | undefined;
  gateway: Gateway;
  /** The gateway's config, as started. */
  gatewayConfig: Readonly<GatewayConfig>;
  /**
   * Starts one more gateway in front of the same services (its own caches and limiter
   * client; with NATS, its own bus connection, as a gateway of its own process has).
   */
  addGateway(overrides?: Partial<GatewayConfig>): Promise<Gateway>;
}

/** Starts bus, auth, geo, graph, ingest, results, webhooks and gateway; `config.lifecycle` stops them. */
export async function startStack(config: StackConfig): Promise<Stack> {
  const { dataDir, serves, lifecycle, log } = config;
  const word = config.subjectWord ?? serves;
  const name = config.name ?? 'civicgraph';
  const child = (service: string) => log.child({ service });
  const bus = await openBus(config.natsUrl, name, log, config.natsUrl === undefined ? config.localBus : undefined);
  lifecycle.defer('event bus', () => bus.close());
  const auth = await startAuthService(
    { ...defaultAuthConfig(dataDir), port: 0, natsUrl: config.natsUrl, ...config.auth },
    {
      bus,
      lifecycle,
      log: child('auth'),
      ...(config.subjectWord === undefined ? {} : { subjectWords: { test: word, live: word } }),
    },
  );
  const geo = await startGeoService(
    {
      ...defaultGeoConfig(dataDir),
      port: 0,
      env: word as DeploymentEnvironment,
      natsUrl: config.natsUrl,
      ...config.geo,
    },
    { bus, lifecycle, log: child('geo') },
  );
  const graph = await startGraphService(
    {
      ...defaultGraphConfig(dataDir),
      port: 0,
      env: word as DeploymentEnvironment,
      serves,
      natsUrl: config.natsUrl,
      // Exports carry the regions' outlines, asked of this stack's geo service.
      geoAddr: geo.address,
      ...config.graph,
    },
    { bus, lifecycle, log: child('graph') },
  );
  const ingest =
    config.ingest === undefined
      ? undefined
      : await startIngest(config, config.ingest, { graphAddr: graph.address, geoAddr: geo.address }, word);
  await config.prepare?.({ auth, geo, graph, ingest, bus });
  // Results keeps its own copy of the graph's result rows, read over gRPC and kept current by events.
  const results = await startResultsService(
    {
      ...defaultResultsConfig(dataDir, graph.address),
      port: 0,
      env: word,
      serves,
      natsUrl: config.natsUrl,
      ...config.results,
    },
    { bus, lifecycle, log: child('results') },
  );
  const webhooks =
    config.webhooks === undefined
      ? undefined
      : await startWebhooksService(
          { ...defaultWebhooksConfig(dataDir), port: 0, env: word, natsUrl: config.natsUrl, ...config.webhooks },
          { bus, lifecycle, log: child('webhooks') },
        );
  const gatewayConfig: Readonly<GatewayConfig> = Object.freeze({
    ...defaultGatewayConfig({
      geoAddr: geo.address,
      authAddr: auth.address,
      graphAddr: graph.address,
      resultsAddr: results.address,
    }),
    port: 0,
    webhooksAddr: webhooks?.address,
    ingestAddr: ingest?.address,
    env: word as DeploymentEnvironment,
    serves,
    natsUrl: config.natsUrl,
    ...config.gateway,
  });
  const gatewayOf = (gatewayBus: EventBus, overrides: Partial<GatewayConfig> = {}) =>
    startGateway(
      { ...gatewayConfig, ...overrides },
      {
        bus: gatewayBus,
        lifecycle,
        log: child('gateway'),
        ...(config.versions === undefined ? {} : { versions: config.versions }),
      },
    );
  const gateway = await gatewayOf(bus);
  const addGateway = async (overrides: Partial<GatewayConfig> = {}) => {
    if (config.natsUrl === undefined) return gatewayOf(bus, { port: 0, ...overrides });
    const own = await openBus(config.natsUrl, `${name}-gateway`, log);
    lifecycle.defer('second gateway bus', () => own.close());
    return gatewayOf(own, { port: 0, ...overrides });
  };
  return { url: gateway.url, auth, geo, graph, ingest, results, webhooks, gateway, gatewayConfig, bus, addGateway };
}

function startIngest(
  config: StackConfig,
  options: Partial<IngestConfig> & { onRun?: (run: RunRecord) => void },
  upstreams: Pick<IngestConfig, 'graphAddr' | 'geoAddr'>,
  word: string,
): Promise<IngestService> {
  const { onRun, ...overrides } = options;
  return startIngestService(
    {
      ...defaultIngestConfig(config.dataDir, upstreams),
      port: 0,
      schedule: false,
      env: word as DeploymentEnvironment,
      ...overrides,
    },
    {
      lifecycle: config.lifecycle,
      log: config.log.child({ service: 'ingest' }),
      ...(onRun === undefined ? {} : { onRun }),
    },
  );
}
