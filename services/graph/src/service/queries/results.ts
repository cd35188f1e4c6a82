import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ListResultsRequest, ResultRow, ResultRowPage } from '@civicgraph/protos/civic/graph/v1/graph';
import { nodeVisible } from '@civicgraph/kit';
import type { NodeDoc } from '../../model/nodes.js';
import { limitParam, slugParam } from '../params.js';
import type { QueryContext } from './context.js';

/**
 * A page of certified result rows (result nodes in slug order), each with its contest's
 * scope and provenance: what the results service copies into its own store. The scope
 * that decides visibility is the contest's, so it is applied to each row's contest here,
 * not inside the store to the row's own state and tier.
 */
export async function listResults(
  ctx: QueryContext,
  principal: Principal,
  req: ListResultsRequest,
): Promise<ResultRowPage> {
  const contest = slugParam('contest', req.contest, 'contest');
  const limit = limitParam(req.page?.limit ?? 0);
  const filters = { contest };
  const after = ctx.cursors.decode(req.page?.cursor ?? '', filters);
  const page = await ctx.store.query({
    kind: 'result',
    ...(contest === '' ? {} : { match: { contest: [contest] } }),
    ...(after === undefined ? {} : { after }),
    limit,
  });
  const rows = page.nodes as NodeDoc<'result'>[];
  const contests = new Map(
    (await ctx.store.getNodes([...new Set(rows.map((r) => r.data.contest))])).map((c) => [c.slug, c]),
  );
  const shown = rows.filter((r) => {
    const c = contests.get(r.data.contest);
    return c !== undefined && c.kind === 'contest' && nodeVisible(principal, c);
  });
  // One edge read per row: this runs when results change, not when they are asked for.
  const provenance = await Promise.all(
    shown.map(async (r) => (await ctx.store.edges(r.slug, 'out', 'SUPPORTED_BY')).map((e) => e.to).sort()),
  );
  return {
    data: shown.map((r, i) => resultRow(r, contests.get(r.data.contest)!, provenance[i]!)),
    nextCursor: page.next === undefined ? '' : ctx.cursors.encode(page.next, filters),
  };
}

function resultRow(r: NodeDoc<'result'>, contest: NodeDoc, provenance: string[]): ResultRow {
  const d = r.data;
  return {
    slug: r.slug,
    contest: d.contest,
    contestState: contest.state,
    contestTier: contest.tier,
    choice: d.choice,
    candidacy: d.candidacy,
    party: d.party,
    votes: String(d.votes),
    ...(d.share === null ? {} : { share: d.share }),
    ...(d.totalVotes === null ? {} : { totalVotes: String(d.totalVotes) }),
    certified: d.certified,
    ...(d.winner === null ? {} : { winner: d.winner }),
    provenance,
  };
}
