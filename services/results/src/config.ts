import { join, resolve } from 'node:path';
import { ENVIRONMENTS, int, oneOf, optionalStr, str, type DeploymentEnvironment } from '@civicgraph/kit';

/** Results service configuration: the only reader of process.env in this service. */
export interface ResultsConfig {
  /** gRPC bind host (RESULTS_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (RESULTS_GRPC_PORT, default 50054; 0 picks a free one). */
  port: number;
  /** The service's own store of result rows: `${CIVIC_DATA_DIR}/results`. */
  storePath: string;
  /** The graph service it copies results from (GRAPH_ADDR, host:port, default 127.0.0.1:50053). */
  graphAddr: string;
  /** NATS server (NATS_URL) carrying the graph's result and contest events; unset → in-process bus. */
  natsUrl: string | undefined;
  /** The subject word events are published under (CIVIC_ENV, default test). */
  env: string;
  /** The environment whose keys this deployment's data serves (CIVIC_ENV, default test). */
  serves: DeploymentEnvironment;
  logLevel: string;
}

export function readResultsConfig(env: NodeJS.ProcessEnv = process.env): Readonly<ResultsConfig> {
  return Object.freeze({
    host: str(env, 'RESULTS_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'RESULTS_GRPC_PORT', 50054, 0, 65535),
    storePath: join(resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')), 'results'),
    graphAddr: str(env, 'GRAPH_ADDR', '127.0.0.1:50053'),
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    serves: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}
