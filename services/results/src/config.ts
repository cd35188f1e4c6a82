import { join, resolve } from 'node:path';
import { COMMON_SETTINGS, defineSettings, grpcBindSettings, type DeploymentEnvironment } from '@civicgraph/kit';
import { STORE_SETTINGS, storeSelectionOf, type StoreSelection } from '@civicgraph/graph';

/** Results service configuration: the only reader of process.env in this service. */
export interface ResultsConfig {
  /** gRPC bind host (RESULTS_GRPC_HOST). */
  host: string;
  /** gRPC port (RESULTS_GRPC_PORT; 0 picks a free one). */
  port: number;
  /** The embedded graph store it reads results from: `${CIVIC_DATA_DIR}/graph`. */
  storePath: string;
  /** The graph store adapter (GRAPH_STORE and ARANGO_*, as the graph service reads them). */
  store: StoreSelection;
  /** The environment whose keys this deployment's data serves (CIVIC_ENV). */
  serves: DeploymentEnvironment;
  logLevel: string;
}

/** The results service's environment: every variable it reads, with its default and meaning. */
export const resultsSettings = defineSettings('results', {
  ...grpcBindSettings('RESULTS', 50054),
  CIVIC_DATA_DIR: { ...COMMON_SETTINGS.CIVIC_DATA_DIR, description: 'folder of the embedded stores: reads the election graph in `graph/`' },
  CIVIC_ENV: COMMON_SETTINGS.CIVIC_ENV,
  ...STORE_SETTINGS,
  LOG_LEVEL: COMMON_SETTINGS.LOG_LEVEL,
});

export function readResultsConfig(env: NodeJS.ProcessEnv = process.env): Readonly<ResultsConfig> {
  const s = resultsSettings.parse(env);
  return Object.freeze({
    host: s.RESULTS_GRPC_HOST,
    port: s.RESULTS_GRPC_PORT,
    storePath: join(resolve(s.CIVIC_DATA_DIR), 'graph'),
    store: storeSelectionOf(s),
    serves: s.CIVIC_ENV,
    logLevel: s.LOG_LEVEL,
  });
}
