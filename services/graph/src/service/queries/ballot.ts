import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { BallotRequest, BallotResponse, Choice, UnresolvedRegion } from '@civicgraph/protos/civic/graph/v1/graph';
import { InvalidParameterError, storeScope } from '@civicgraph/kit';
import { isLevel } from '../../model/kinds.js';
import type { NodeDoc } from '../../model/nodes.js';
import { queryAll } from '../../store/query-all.js';
import { confidenceParam, dateParam, slugParam } from '../params.js';
import { contestReferences } from '../related.js';
import { contestView, regionRef } from '../views.js';
import { readRegionFacts } from './ballot-facts.js';
import { ballotOrder } from './ballot-order.js';
import { placeRegion } from './ballot-scope.js';
import { candidaciesOf } from './candidacies.js';
import type { QueryContext } from './context.js';

const NATIONAL = 'region:us';

/** The most regions one ballot may name (a point lies in a few dozen at most). */
const MAX_REGIONS = 200;

/** Ballot access a source has established: only these candidacies are on a ballot. */
const ON_A_BALLOT: ReadonlySet<string> = new Set(['ON_BALLOT', 'WRITE_IN']);

/**
 * The ballot: the contests of the point's state(s) held on the date in a region that holds
 * the point (its own regions, or a region one of them lies within), each with its
 * candidacies whose ballot access is established (certified results, an official list,
 * VIP), and ballot questions' choices; and, apart, the regions with contests that may hold
 * the point but that no loaded boundary resolves (ballot-scope.ts says how each is decided).
 */
export async function ballot(ctx: QueryContext, principal: Principal, req: BallotRequest): Promise<BallotResponse> {
  const date = dateParam('date', req.date);
  if (date === '') throw new InvalidParameterError('date', 'date is required: YYYY-MM-DD.');
  const minConfidence = confidenceParam(req.minConfidence);
  const point = pointRegions(req);
  if (point.size === 0) return { contests: [], unresolved: [] };
  // National contests are on every ballot; point lookups do not name the nation.
  if (!point.has(NATIONAL)) point.set(NATIONAL, 'national');
  const scope = storeScope(principal);
  const states = [...point].filter(([, level]) => level === 'state').map(([slug]) => slug.slice('region:'.length));
  const scoped = {
    ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
    dateFrom: date,
    dateTo: date,
  } as const;
  const own = (await queryAll(ctx.store, {
    kind: 'contest',
    match: { region: [...point.keys()] },
    ...scoped,
    ...statesOf(scope.states),
  })) as NodeDoc<'contest'>[];
  const ownSlugs = new Set(own.map((c) => c.slug));
  const visible = scope.states === undefined ? states : states.filter((s) => scope.states!.includes(s));
  const inStates =
    visible.length === 0
      ? []
      : ((await queryAll(ctx.store, { kind: 'contest', ...scoped, states: visible })) as NodeDoc<'contest'>[]);
  const others = inStates.filter((c) => !ownSlugs.has(c.slug));
  const facts = await readRegionFacts(ctx.store, point, others);
  const onBallot = [...own];
  const unresolved = new Map<string, { reason: string; contests: NodeDoc<'contest'>[] }>();
  for (const c of others) {
    const placed = placeRegion(c.data.region, facts);
    if ('on' in placed) {
      if (placed.on) onBallot.push(c);
      continue;
    }
    const entry = unresolved.get(c.data.region) ?? { reason: placed.unresolved, contests: [] };
    entry.contests.push(c);
    unresolved.set(c.data.region, entry);
  }
  const references = [...onBallot, ...others].flatMap(contestReferences);
  const { byContest, related } = await candidaciesOf(
    ctx,
    principal,
    onBallot.map((c) => c.slug),
    minConfidence,
    references,
    (n) => ON_A_BALLOT.has(String(n.data.fields.ballotAccess?.value)),
  );
  const choices = await choicesOf(ctx, onBallot);
  onBallot.sort(ballotOrder(new Map([...point.keys()].map((r, i) => [r, i]))));
  return {
    contests: onBallot.map((c) => contestView(c, related, byContest.get(c.slug) ?? [], choices.get(c.slug) ?? [])),
    unresolved: [...unresolved]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([region, { reason, contests }]): UnresolvedRegion => ({
        region: regionRef(related.get(region, 'region'), region),
        reason,
        contests: contests.sort((a, b) => (a.slug < b.slug ? -1 : 1)).map((c) => contestView(c, related)),
      })),
  };
}

/** The request's regions with their levels (unknown levels stay '', and exclude nothing). */
function pointRegions(req: BallotRequest): Map<string, string> {
  if (req.regions.length > MAX_REGIONS)
    throw new InvalidParameterError('regions', `At most ${MAX_REGIONS} regions, got ${req.regions.length}.`);
  if (req.regionLevels.length !== 0 && req.regionLevels.length !== req.regions.length) {
    throw new InvalidParameterError(
      'region_levels',
      `region_levels must name one level per region (${req.regions.length}), got ${req.regionLevels.length}.`,
    );
  }
  const point = new Map<string, string>();
  req.regions.forEach((r, i) => {
    const level = req.regionLevels[i] ?? '';
    if (level !== '' && !isLevel(level))
      throw new InvalidParameterError(`region_levels[${i}]`, `"${level}" is not a region level.`);
    point.set(slugParam(`regions[${i}]`, r, 'region', true), level);
  });
  return point;
}

function statesOf(states: readonly string[] | undefined): { states?: readonly string[] } {
  return states === undefined ? {} : { states };
}

/** The options of the ballot questions and retentions among the contests, from their results (Yes before No). */
async function choicesOf(ctx: QueryContext, contests: readonly NodeDoc<'contest'>[]): Promise<Map<string, Choice[]>> {
  const questions = contests.filter((c) => c.data.office === '' || c.data.type === 'retention').map((c) => c.slug);
  const out = new Map<string, Choice[]>();
  if (questions.length === 0) return out;
  const results = (await queryAll(ctx.store, { kind: 'result', match: { contest: questions } })) as NodeDoc<'result'>[];
  // A question's options are its `-yes` and `-no` results (a retention's rows say `DUNN - YES`).
  for (const r of results.filter((x) => x.data.candidacy === '' && /-(yes|no)$/.test(x.slug))) {
    const list = out.get(r.data.contest) ?? [];
    list.push({ result: r.slug, label: r.slug.endsWith('-yes') ? 'Yes' : 'No' });
    out.set(r.data.contest, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a.label === b.label ? 0 : a.label === 'Yes' ? -1 : 1));
  return out;
}
