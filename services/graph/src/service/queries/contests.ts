import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Contest, ContestPage, GetRequest, ListContestsRequest } from '@civicgraph/protos/civic/graph/v1/graph';
import { NotFoundError, nodeVisible } from '@civicgraph/kit';
import type { NodeDoc } from '../../model/nodes.js';
import { confidenceParam, dateParam, levelParam, slugParam, stateParam } from '../params.js';
import { contestReferences, Related } from '../related.js';
import { contestView } from '../views.js';
import { candidaciesOf } from './candidacies.js';
import { scopedPage, type QueryContext } from './context.js';

/** Contests in a state, optionally of one level on one election day. */
export async function listContests(
  ctx: QueryContext,
  principal: Principal,
  req: ListContestsRequest,
): Promise<ContestPage> {
  const state = stateParam('state', req.state, true);
  const level = levelParam('level', req.level);
  const date = dateParam('date', req.date);
  confidenceParam(req.minConfidence);
  const filters = { state, level, date };
  const { nodes, nextCursor } = await scopedPage(
    ctx,
    principal,
    {
      kind: 'contest',
      states: [state],
      match: level === '' ? {} : { level: [level] },
      ...(date === '' ? {} : { dateFrom: date, dateTo: date }),
      order: 'date',
    },
    req.page,
    filters,
  );
  const contests = nodes as NodeDoc<'contest'>[];
  const related = await Related.load(ctx.store, contests.flatMap(contestReferences));
  return { data: contests.map((c) => contestView(c, related)), nextCursor };
}

/** One contest with its candidacies; a contest out of the caller's scope does not exist for it. */
export async function getContest(ctx: QueryContext, principal: Principal, req: GetRequest): Promise<Contest> {
  const slug = slugParam('slug', req.slug, 'contest', true);
  const minConfidence = confidenceParam(req.minConfidence);
  const contest = await ctx.store.getNode<'contest'>(slug);
  if (contest === undefined || contest.kind !== 'contest' || !nodeVisible(principal, contest)) {
    throw new NotFoundError(`No contest ${slug}.`, { field: 'slug' });
  }
  const { byContest, related } = await candidaciesOf(ctx, principal, [slug], minConfidence, contestReferences(contest));
  return contestView(contest, related, byContest.get(slug) ?? []);
}
