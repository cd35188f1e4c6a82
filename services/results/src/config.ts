import { join, resolve } from 'node:path';
import { ENVIRONMENTS, int, oneOf, str, type DeploymentEnvironment } from '@civicgraph/kit';
import { readStoreSelection, type StoreSelection } from '@civicgraph/graph';

/** Results service configuration: the only reader of process.env in this service. */
export interface ResultsConfig {
  /** gRPC bind host (RESULTS_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (RESULTS_GRPC_PORT, default 50054; 0 picks a free one). */
  port: number;
  /** The embedded graph store it reads results from: `${CIVIC_DATA_DIR}/graph`. */
  storePath: string;
  /** The graph store adapter (GRAPH_STORE and ARANGO_*, as the graph service reads them). */
  store: StoreSelection;
  /** The environment whose keys this deployment's data serves (CIVIC_ENV, default test). */
  serves: DeploymentEnvironment;
  logLevel: string;
}

export function readResultsConfig(env: NodeJS.ProcessEnv = process.env): Readonly<ResultsConfig> {
  return Object.freeze({
    host: str(env, 'RESULTS_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'RESULTS_GRPC_PORT', 50054, 0, 65535),
    storePath: join(resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph')), 'graph'),
    store: readStoreSelection(env),
    serves: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}
