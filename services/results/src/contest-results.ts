import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ChoiceResult, ContestResultsRequest, ContestResultsResponse } from '@civicgraph/protos/civic/results/v1/results';
import { InvalidParameterError, NotFoundError, nodeVisible } from '@civicgraph/kit';
import { isSlugOf, queryAll, type GraphStore, type NodeDoc } from '@civicgraph/graph';

/**
 * Certified results of one contest: every choice with its votes and share, most votes
 * first. The contest's own scope decides visibility: a contest outside the caller's states
 * or tiers does not exist for it (NOT_FOUND), exactly as in the graph service.
 */
export async function contestResults(store: GraphStore, principal: Principal, req: ContestResultsRequest): Promise<ContestResultsResponse> {
  if (req.contest === '') throw new InvalidParameterError('contest', 'contest is required: a contest slug such as contest:co-us-president-2024-general.');
  if (!isSlugOf('contest', req.contest)) throw new InvalidParameterError('contest', `contest must be a contest slug (contest:<key>), got "${req.contest}".`);
  const contest = await store.getNode<'contest'>(req.contest);
  if (contest === undefined || contest.kind !== 'contest' || !nodeVisible(principal, contest)) {
    throw new NotFoundError(`No contest ${req.contest}.`, { field: 'contest' });
  }
  const rows = ((await queryAll(store, { kind: 'result', match: { contest: [req.contest] } })) as NodeDoc<'result'>[]).sort((a, b) => b.data.votes - a.data.votes || a.slug.localeCompare(b.slug));
  const provenance = new Set<string>();
  for (const edges of await Promise.all(rows.map((r) => store.edges(r.slug, 'out', 'SUPPORTED_BY')))) for (const e of edges) provenance.add(e.to);
  const totals = new Set(rows.map((r) => r.data.totalVotes).filter((t): t is number => t !== null));
  return {
    contest: req.contest,
    results: rows.map(choice),
    ...(totals.size === 1 ? { totalVotes: String([...totals][0]) } : {}),
    certified: rows.length > 0 && rows.every((r) => r.data.certified),
    provenance: [...provenance].sort(),
  };
}

function choice(r: NodeDoc<'result'>): ChoiceResult {
  const d = r.data;
  return {
    slug: r.slug,
    choice: d.choice,
    candidacy: d.candidacy,
    party: d.party,
    votes: String(d.votes),
    ...(d.share === null ? {} : { share: d.share }),
    ...(d.winner === null ? {} : { winner: d.winner }),
  };
}
