import type { StateInfo } from '@civicgraph/kit';
import type { NodeDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { edge } from '../shared/index.js';
import { isDangling, type FeedElement, type FeedIndex } from './feed-index.js';
import { precinctRegion, type RegionPlan } from './regions.js';
import { idRefs, text } from './xml.js';

type Plans = ReadonlyMap<string, RegionPlan | { problem: string }>;
type PrecinctItem = { at: string; nodes: NodeDraft[]; edges: EdgeDoc[] } | { rejected: { at: string; reason: string } };

/**
 * Precincts as regions, each WITHIN its locality and electoral districts (those that have
 * a region). VIP 5 lists each split of a precinct as a Precinct of its own, with the same
 * Number and a PrecinctSplitName: the splits are one precinct, WITHIN only the regions
 * every split lies in (a split into two House districts is in neither as a whole). Two
 * precincts with one Number that are not splits are a conflict: the later is rejected.
 */
export function* precinctItems(
  index: FeedIndex,
  state: StateInfo | undefined,
  districts: Plans,
  localities: Plans,
): Generator<PrecinctItem> {
  const groups = new Map<string, { plan: RegionPlan; parts: { fe: FeedElement; within: RegionPlan[] }[] }>();
  for (const fe of index.ofType('Precinct')) {
    const plan = precinctRegion(fe, state);
    if ('problem' in plan) {
      yield { rejected: { at: fe.label, reason: plan.problem } };
      continue;
    }
    const within = withinOf(fe, index, districts, localities);
    if ('problem' in within) {
      yield { rejected: { at: fe.label, reason: within.problem } };
      continue;
    }
    const group = groups.get(plan.draft.slug);
    if (group === undefined) groups.set(plan.draft.slug, { plan, parts: [{ fe, within: within.regions }] });
    else if (
      text(fe.el, 'PrecinctSplitName') !== undefined &&
      text(group.parts[0]!.fe.el, 'PrecinctSplitName') !== undefined
    )
      group.parts.push({ fe, within: within.regions });
    else
      yield {
        rejected: {
          at: fe.label,
          reason: `names the same precinct (${plan.draft.slug}) as ${group.parts[0]!.fe.label}, and neither is a split (PrecinctSplitName)`,
        },
      };
  }
  for (const { plan, parts } of groups.values()) {
    const common = parts
      .slice(1)
      .reduce((acc, p) => acc.filter((r) => p.within.some((q) => q.draft.slug === r.draft.slug)), parts[0]!.within);
    const at =
      parts.length === 1
        ? parts[0]!.fe.label
        : `${parts[0]!.fe.label} and ${parts.length - 1} more split${parts.length > 2 ? 's' : ''}`;
    yield {
      at,
      nodes: [...common.map((r) => r.draft), plan.draft],
      edges: common.map((r) => edge('WITHIN', plan.draft.slug, r.draft.slug)),
    };
  }
}

/** The regions a precinct element lies in, or the first id reference that names nothing. */
function withinOf(
  fe: FeedElement,
  index: FeedIndex,
  districts: Plans,
  localities: Plans,
): { regions: RegionPlan[] } | { problem: string } {
  const refs: [string, string, Plans][] = [
    ...idRefs(fe.el, 'LocalityId').map((id): [string, string, Plans] => ['LocalityId', id, localities]),
    ...idRefs(fe.el, 'ElectoralDistrictIds').map((id): [string, string, Plans] => [
      'ElectoralDistrictIds',
      id,
      districts,
    ]),
  ];
  const regions: RegionPlan[] = [];
  for (const [field, id, plans] of refs) {
    const found = index.resolve(fe, field, id, [field === 'LocalityId' ? 'Locality' : 'ElectoralDistrict']);
    if (isDangling(found)) return found;
    const region = plans.get(id);
    if (region !== undefined && !('problem' in region) && !regions.some((r) => r.draft.slug === region.draft.slug))
      regions.push(region);
  }
  return { regions };
}
