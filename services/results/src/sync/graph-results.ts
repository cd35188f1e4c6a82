import { status, type ServiceError } from '@grpc/grpc-js';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { GraphServiceClient, type ResultRow } from '@civicgraph/protos/civic/graph/v1/graph';
import { call, clientOptions, fromServiceError, insecure, principalMetadata, type DeploymentEnvironment } from '@civicgraph/kit';

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

/**
 * The results service reads every row as itself: a principal of the environment it serves,
 * limited to no state or tier. The callers' scope is applied later, per request, to the
 * contest scope each row carries.
 */
export function servicePrincipal(serves: DeploymentEnvironment): Principal {
  return {
    keyId: 'service:results',
    environment: serves === 'live' ? Environment.ENVIRONMENT_LIVE : Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_ENTERPRISE,
    pinnedVersion: '',
    rateLimitPerMinute: 0,
    entitlements: { contact: false, geography: false, states: [], tiers: [] },
  };
}

/** A GraphResults over a gRPC channel to `address`. */
export function connectGraphResults(address: string, serves: DeploymentEnvironment): GraphResults {
  const client = new GraphServiceClient(address, insecure(), clientOptions(DEADLINE_MS));
  const self = principalMetadata(servicePrincipal(serves));
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
