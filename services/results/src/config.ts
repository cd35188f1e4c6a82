import { join, resolve } from 'node:path';
import {
  address,
  COMMON_SETTINGS,
  defineSettings,
  grpcBindSettings,
  type DeploymentEnvironment,
  TRACING_SETTINGS,
  tracingConfigOf,
  type TracingConfig,
} from '@civicgraph/kit';

/** Results service configuration: the only reader of process.env in this service. */
export interface ResultsConfig {
  /** gRPC bind host (RESULTS_GRPC_HOST). */
  host: string;
  /** gRPC port (RESULTS_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** The service's own store of result rows: `${CIVIC_DATA_DIR}/results`. */
  storePath: string;
  /** The graph service it copies results from (GRAPH_ADDR, host:port). */
  graphAddr: string;
  /** NATS server (NATS_URL) carrying the graph's result and contest events; unset → in-process bus. */
  natsUrl: string | undefined;
  /** The subject word events are published under (CIVIC_ENV). */
  env: string;
  /** The environment whose keys this deployment's data serves (CIVIC_ENV). */
  serves: DeploymentEnvironment;
  logLevel: string;
  /** Prometheus /metrics listener (METRICS_PORT, METRICS_HOST); undefined port → none. */
  metrics?: { port: number | undefined; host: string };
  /** Trace spans (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG). */
  tracing?: TracingConfig;
}

/** The results service's environment: every variable it reads, with its default and meaning. */
export const resultsSettings = defineSettings('results', {
  ...grpcBindSettings('RESULTS', 50054),
  CIVIC_DATA_DIR: {
    ...COMMON_SETTINGS.CIVIC_DATA_DIR,
    description: 'folder of the embedded stores: its own store of result rows in `results/`',
  },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  GRAPH_ADDR: { type: address(), required: true, description: 'the graph service it copies results from, `host:port`' },
  NATS_URL: {
    ...COMMON_SETTINGS.NATS_URL,
    description: "NATS JetStream carrying the graph's result and contest events; unset → the in-process bus",
  },
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
  METRICS_PORT: COMMON_SETTINGS.METRICS_PORT,
  METRICS_HOST: COMMON_SETTINGS.METRICS_HOST,
  ...TRACING_SETTINGS,
});

export function readResultsConfig(env: NodeJS.ProcessEnv = process.env): Readonly<ResultsConfig> {
  return configOf(resultsSettings.parse(env));
}

/** Every setting at its default, over `dataDir` and the graph service's address: the base of a stack started in code. */
export function defaultResultsConfig(dataDir: string, graphAddr: string): Readonly<ResultsConfig> {
  return configOf({ ...resultsSettings.defaults(), CIVIC_DATA_DIR: dataDir, GRAPH_ADDR: graphAddr });
}

function configOf(s: ReturnType<typeof resultsSettings.parse>): Readonly<ResultsConfig> {
  return Object.freeze({
    host: s.RESULTS_GRPC_HOST,
    port: s.RESULTS_GRPC_PORT,
    storePath: join(resolve(s.CIVIC_DATA_DIR), 'results'),
    graphAddr: s.GRAPH_ADDR,
    natsUrl: s.NATS_URL,
    env: s.CIVIC_ENV,
    serves: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
    metrics: { port: s.METRICS_PORT, host: s.METRICS_HOST },
    tracing: tracingConfigOf(s, 'results'),
  });
}
