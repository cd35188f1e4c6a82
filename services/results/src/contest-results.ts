import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type {
  ChoiceResult,
  ContestResultsRequest,
  ContestResultsResponse,
} from '@civicgraph/protos/civic/results/v1/results';
import { InvalidParameterError, NotFoundError, nodeVisible } from '@civicgraph/kit';
import type { ContestRecord, StoredRow } from './domain/contest-record.js';
import type { ResultsStore } from './store/results-store.js';
import type { GraphResults } from './sync/graph-results.js';

/** A contest slug as the graph writes them (its model/slugs.ts): `contest:` and a slug key. */
const CONTEST_SLUG = /^contest:[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What answering needs: the service's own store, and the graph for contests it holds no rows of. */
export interface AnswerDeps {
  store: Pick<ResultsStore, 'contest'>;
  graph: Pick<GraphResults, 'contestVisible'>;
}

/**
 * Certified results of one contest: every choice with its votes and share, most votes
 * first, read from the service's own store in one read. The contest's own scope decides
 * visibility: a contest outside the caller's states or tiers does not exist for it
 * (NOT_FOUND), exactly as in the graph service. A contest with no rows is the graph's to
 * vouch for: the graph is asked, as the caller, whether the contest exists for it.
 */
export async function contestResults(
  deps: AnswerDeps,
  principal: Principal,
  req: ContestResultsRequest,
): Promise<ContestResultsResponse> {
  if (req.contest === '')
    throw new InvalidParameterError(
      'contest',
      'contest is required: a contest slug such as contest:co-us-president-2024-general.',
    );
  if (!CONTEST_SLUG.test(req.contest))
    throw new InvalidParameterError('contest', `contest must be a contest slug (contest:<key>), got "${req.contest}".`);
  const notFound = () => new NotFoundError(`No contest ${req.contest}.`, { field: 'contest' });
  const record = await deps.store.contest(req.contest);
  if (record === undefined) {
    if (!(await deps.graph.contestVisible(principal, req.contest))) throw notFound();
    return { contest: req.contest, results: [], certified: false, provenance: [] };
  }
  if (!nodeVisible(principal, record)) throw notFound();
  return answer(record);
}

function answer(record: ContestRecord): ContestResultsResponse {
  const totals = new Set(record.rows.map((r) => r.totalVotes).filter((t): t is number => t !== null));
  return {
    contest: record.contest,
    results: record.rows.map(choice),
    ...(totals.size === 1 ? { totalVotes: String([...totals][0]) } : {}),
    certified: record.rows.length > 0 && record.rows.every((r) => r.certified),
    provenance: [...new Set(record.rows.flatMap((r) => r.provenance))].sort(),
  };
}

function choice(r: StoredRow): ChoiceResult {
  return {
    slug: r.slug,
    choice: r.choice,
    candidacy: r.candidacy,
    party: r.party,
    votes: String(r.votes),
    ...(r.share === null ? {} : { share: r.share }),
    ...(r.winner === null ? {} : { winner: r.winner }),
  };
}
