import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type {
  Candidacy,
  CandidacyPage,
  GetRequest,
  ListCandidaciesRequest,
} from '@civicgraph/protos/civic/graph/v1/graph';
import { InvalidParameterError, NotFoundError, nodeVisible, storeScope } from '@civicgraph/kit';
import type { NodeDoc } from '../../model/nodes.js';
import { queryAll } from '../../store/query-all.js';
import { confidenceParam, slugParam, stateParam } from '../params.js';
import { candidacyReferences, Related } from '../related.js';
import { candidacyView } from '../views.js';
import { scopedPage, type QueryContext } from './context.js';

/** Candidacies by contest, state and/or party (at least one), at or above a confidence. */
export async function listCandidacies(
  ctx: QueryContext,
  principal: Principal,
  req: ListCandidaciesRequest,
): Promise<CandidacyPage> {
  const contest = slugParam('contest', req.contest, 'contest');
  const state = stateParam('state', req.state, false);
  const party = slugParam('party', req.party, 'party');
  const minConfidence = confidenceParam(req.minConfidence);
  if (contest === '' && state === '' && party === '') {
    throw new InvalidParameterError('contest', 'Name at least one of contest, state or party.');
  }
  const filters = { contest, state, party, minConfidence };
  const { nodes, nextCursor } = await scopedPage(
    ctx,
    principal,
    {
      kind: 'candidacy',
      ...(state === '' ? {} : { states: [state] }),
      match: { ...(contest === '' ? {} : { contest: [contest] }), ...(party === '' ? {} : { party: [party] }) },
      ...(minConfidence > 0 ? { minConfidence } : {}),
    },
    req.page,
    filters,
  );
  const candidacies = nodes as NodeDoc<'candidacy'>[];
  const related = await Related.load(ctx.store, candidacies.flatMap(candidacyReferences));
  return { data: candidacies.map((c) => candidacyView(c, related, principal)), nextCursor };
}

/** One candidacy; out of the caller's scope it does not exist. */
export async function getCandidacy(ctx: QueryContext, principal: Principal, req: GetRequest): Promise<Candidacy> {
  const slug = slugParam('slug', req.slug, 'candidacy', true);
  const minConfidence = confidenceParam(req.minConfidence);
  const node = await ctx.store.getNode<'candidacy'>(slug);
  if (node === undefined || node.kind !== 'candidacy' || !nodeVisible(principal, node)) {
    throw new NotFoundError(`No candidacy ${slug}.`, { field: 'slug' });
  }
  if (node.data.confidence < minConfidence) {
    throw new NotFoundError(
      `Candidacy ${slug} has confidence ${node.data.confidence}, below min_confidence ${minConfidence}.`,
      { field: 'min_confidence' },
    );
  }
  const related = await Related.load(ctx.store, candidacyReferences(node));
  return candidacyView(node, related, principal);
}

/**
 * The visible candidacies of some contests at or above a confidence (and passing `keep`), grouped by contest,
 * highest confidence first; and the nodes they (and `alsoRelated`, the contests' own
 * references) cite, fetched in one store read.
 */
export async function candidaciesOf(
  ctx: QueryContext,
  principal: Principal,
  contests: readonly string[],
  minConfidence: number,
  alsoRelated: readonly string[] = [],
  keep: (node: NodeDoc<'candidacy'>) => boolean = () => true,
): Promise<{ byContest: Map<string, Candidacy[]>; related: Related }> {
  const out = new Map<string, Candidacy[]>();
  if (contests.length === 0) return { byContest: out, related: await Related.load(ctx.store, alsoRelated) };
  const scope = storeScope(principal);
  const nodes = (
    await queryAll(ctx.store, {
      kind: 'candidacy',
      match: { contest: contests },
      ...(scope.states === undefined ? {} : { states: scope.states }),
      ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
      ...(minConfidence > 0 ? { minConfidence } : {}),
    })
  ).filter((n) => keep(n as NodeDoc<'candidacy'>)) as NodeDoc<'candidacy'>[];
  const related = await Related.load(ctx.store, [...alsoRelated, ...nodes.flatMap(candidacyReferences)]);
  for (const node of nodes) {
    const view = candidacyView(node, related, principal);
    const list = out.get(view.contest) ?? [];
    list.push(view);
    out.set(view.contest, list);
  }
  for (const list of out.values())
    list.sort((a, b) => b.confidence - a.confidence || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { byContest: out, related };
}
