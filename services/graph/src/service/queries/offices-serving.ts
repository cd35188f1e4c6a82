import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { storeScope } from '@civicgraph/kit';
import type { NodeDoc } from '../../model/nodes.js';
import type { GraphStore } from '../../store/graph-store.js';
import { MAX_ANSWER_NODES, queryAll } from '../../store/query-all.js';

/**
 * Which offices serve a region "and its sub-regions", in graph facts only:
 *   - a state: every office of that state (its `state`), which is every office whose
 *     region lies in the state — statewide, legislative, congressional, county and city;
 *   - any other region: its own offices and those of the regions stored as WITHIN it,
 *     at any depth (a county's places only where a source states that they lie in it; no
 *     source does today, and a place may span counties, so none is guessed);
 *   - the nation: its own offices. Every office of the country is a bulk export, not a page.
 */
export interface ServedArea {
  region: string;
  /** Set when the region is a state: offices of this state serve it. */
  state?: string;
  /** Regions stored as lying within the region (not the region itself). */
  within: readonly string[];
}

export async function servedArea(store: GraphStore, region: string): Promise<ServedArea> {
  const node = await store.getNode<'region'>(region);
  if (node?.kind !== 'region' || node.data.level === 'national') return { region, within: [] };
  if (node.data.level === 'state') return { region, state: node.state, within: [] };
  return { region, within: await regionsWithin(store, region) };
}

/** Whether an office serves the area. */
export function servesArea(area: ServedArea, office: NodeDoc<'office'>): boolean {
  return (
    office.data.region === area.region ||
    (area.state !== undefined && office.state === area.state) ||
    area.within.includes(office.data.region)
  );
}

/**
 * The offices serving the area that exist for the caller: its states and tiers applied
 * inside the store's query, so nothing out of scope is read.
 */
export async function officesServing(
  store: GraphStore,
  principal: Principal,
  area: ServedArea,
): Promise<NodeDoc<'office'>[]> {
  const scope = storeScope(principal);
  const states =
    area.state === undefined ? scope.states : (scope.states ?? [area.state]).filter((s) => s === area.state);
  // An empty list would mean "every state" to the store: a state outside the scope has no offices for this key.
  if (states !== undefined && states.length === 0) return [];
  const match = area.state === undefined ? { match: { region: [area.region, ...area.within] } } : {};
  const offices = await queryAll(store, {
    kind: 'office',
    ...match,
    ...(states === undefined ? {} : { states }),
    ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
  });
  return offices as NodeDoc<'office'>[];
}

/** Regions with a WITHIN path to `region`, breadth first; bounded like any answer. */
async function regionsWithin(store: GraphStore, region: string): Promise<string[]> {
  const seen = new Set<string>([region]);
  let frontier = [region];
  while (frontier.length > 0) {
    const inner = (await Promise.all(frontier.map((r) => store.edges(r, 'in', 'WITHIN'))))
      .flat()
      .map((e) => e.from)
      .filter((s) => !seen.has(s));
    for (const s of inner) seen.add(s);
    if (seen.size > MAX_ANSWER_NODES) throw new Error(`more than ${MAX_ANSWER_NODES} regions lie within ${region}`);
    frontier = inner;
  }
  seen.delete(region);
  return [...seen];
}
