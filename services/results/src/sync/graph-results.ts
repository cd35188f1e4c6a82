import { status, type ServiceError } from '@grpc/grpc-js';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { GraphServiceClient, type ResultRow } from '@civicgraph/protos/civic/graph/v1/graph';
import {
  call,
  clientOptions,
  fromServiceError,
  insecure,
  principalMetadata,
  servicePrincipal,
  type DeploymentEnvironment,
} from '@civicgraph/kit';

/** The graph service's largest page (its MAX_LIMIT). */
const PAGE = 200;
/** One page of rows, or one contest lookup, within this. */
const DEADLINE_MS = 10_000;

/** What the results service asks the graph service, over gRPC: the graph's data stays the graph's. */
export interface GraphResults {
  /** Every result row (contest '') or one contest's, following every page. */
  rows(contest: string): Promise<ResultRow[]>;
  /** Whether `principal` sees the contest, by the graph's own rules (GetContest as that caller). */
  contestVisible(principal: Principal, contest: string): Promise<boolean>;
  close(): void;
}

/** A GraphResults over a gRPC channel to `address`. */
export function connectGraphResults(address: string, serves: DeploymentEnvironment): GraphResults {
  const client = new GraphServiceClient(address, insecure(), clientOptions(DEADLINE_MS));
  // Rows are read as the results service itself (of the environment it serves, no state or
  // tier limit); the callers' scope is applied per request to the contest scope each row carries.
  const self = principalMetadata(servicePrincipal('results', serves));
  return {
    async rows(contest) {
      const out: ResultRow[] = [];
      let cursor = '';
      do {
        const page = await call(client.listResults.bind(client), { contest, page: { cursor, limit: PAGE } }, self);
        out.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor !== '');
      return out;
    },
    async contestVisible(principal, contest) {
      try {
        // Only whether the contest exists for the caller matters: minConfidence 1 leaves
        // out its candidacies (below every confidence but certainty), which the answer does not use.
        await call(client.getContest.bind(client), { slug: contest, minConfidence: 1 }, principalMetadata(principal));
        return true;
      } catch (err) {
        if ((err as Partial<ServiceError>).code === status.NOT_FOUND) return false;
        throw fromServiceError(err, 'graph');
      }
    },
    close: () => client.close(),
  };
}
