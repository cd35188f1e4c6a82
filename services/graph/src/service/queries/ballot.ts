import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { BallotRequest, BallotResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { InvalidParameterError, storeScope } from '@civicgraph/kit';
import type { NodeDoc } from '../../model/nodes.js';
import { queryAll } from '../../store/query-all.js';
import { confidenceParam, dateParam, slugParam } from '../params.js';
import { contestReferences } from '../related.js';
import { contestView } from '../views.js';
import { candidaciesOf } from './candidacies.js';
import type { QueryContext } from './context.js';

const NATIONAL = 'region:us';

/** The most regions one ballot may name (a point lies in a few dozen at most). */
const MAX_REGIONS = 200;

/**
 * The ballot: contests held in any of the point's regions on the date, each with its
 * candidacies, in the caller's scope. Two store queries (contests by region and date,
 * candidacies by contest) and one fetch of what they refer to.
 */
export async function ballot(ctx: QueryContext, principal: Principal, req: BallotRequest): Promise<BallotResponse> {
  const date = dateParam('date', req.date);
  if (date === '') throw new InvalidParameterError('date', 'date is required: YYYY-MM-DD.');
  const minConfidence = confidenceParam(req.minConfidence);
  if (req.regions.length > MAX_REGIONS) throw new InvalidParameterError('regions', `At most ${MAX_REGIONS} regions, got ${req.regions.length}.`);
  const regions = req.regions.map((r, i) => slugParam(`regions[${i}]`, r, 'region', true));
  if (regions.length === 0) return { contests: [] };
  // National contests (President) are on every ballot; point lookups do not name the nation.
  if (!regions.includes(NATIONAL)) regions.unshift(NATIONAL);
  const scope = storeScope(principal);
  const contests = (await queryAll(ctx.store, {
    kind: 'contest',
    match: { region: regions },
    dateFrom: date,
    dateTo: date,
    ...(scope.states === undefined ? {} : { states: scope.states }),
    ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
  })) as NodeDoc<'contest'>[];
  const { byContest: candidacies, related } = await candidaciesOf(ctx, principal, contests.map((c) => c.slug), minConfidence, contests.flatMap(contestReferences));
  const order = new Map(regions.map((r, i) => [r, i]));
  contests.sort((a, b) => (order.get(a.data.region) ?? 0) - (order.get(b.data.region) ?? 0) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { contests: contests.map((c) => contestView(c, related, candidacies.get(c.slug) ?? [])) };
}
