import { ResultsServiceService, type ResultsServiceServer } from '@civicgraph/protos/civic/results/v1/results';
import { assertEnvironment, principalOf, startGrpcServer, unary, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { GraphStore } from '@civicgraph/graph';
import type { ResultsConfig } from './config.js';
import { contestResults } from './contest-results.js';

export interface ResultsDeps {
  /** The graph store holding `result` nodes; its owner closes it. */
  store: GraphStore;
  lifecycle: Lifecycle;
  log: Logger;
}

export interface ResultsService {
  readonly address: string;
  readonly port: number;
}

export async function startResultsService(config: Pick<ResultsConfig, 'host' | 'port'> & Partial<Pick<ResultsConfig, 'serves'>>, deps: ResultsDeps): Promise<ResultsService> {
  const { store, lifecycle, log } = deps;
  const implementation: ResultsServiceServer = {
    contestResults: unary(log, 'ContestResults', (req, call) => {
      const principal = principalOf(call);
      // Defence in depth, as in the graph service: a key of the other environment never reads this dataset.
      assertEnvironment(config.serves ?? 'test', { principal });
      return contestResults(store, principal, req);
    }),
  };
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [{ name: 'civic.results.v1.ResultsService', definition: ResultsServiceService, implementation }],
    log,
  });
  lifecycle.defer('results grpc server', () => server.stop());
  server.markServing();
  return { address: server.address, port: server.port };
}
