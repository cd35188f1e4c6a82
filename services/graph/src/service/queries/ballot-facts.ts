import type { NodeDoc } from '../../model/nodes.js';
import type { GraphStore } from '../../store/graph-store.js';
import type { RegionFacts } from './ballot-scope.js';

/** How far up WITHIN chains a contest region is followed (district → city → county). */
const CONTAINER_DEPTH = 3;

/**
 * Reads what `placeRegion` needs: the point's regions' WITHIN and OVERLAPS relations, the
 * contest regions' WITHIN chains, and the level of every region involved (from the region
 * nodes, else from the contests that name them).
 */
export async function readRegionFacts(
  store: GraphStore,
  point: ReadonlyMap<string, string>,
  contests: readonly NodeDoc<'contest'>[],
): Promise<RegionFacts> {
  const within = new Map<string, string[]>();
  const overlaps = new Map<string, string[]>();
  const level = new Map<string, string>([...point]);
  for (const c of contests) level.set(c.data.region, c.data.level);
  await Promise.all(
    [...point.keys()].map(async (p) => {
      within.set(
        p,
        (await store.edges(p, 'out', 'WITHIN')).map((e) => e.to),
      );
      overlaps.set(
        p,
        (await store.edges(p, 'out', 'OVERLAPS')).map((e) => e.to),
      );
    }),
  );
  let frontier = [...new Set(contests.map((c) => c.data.region))].filter((r) => !point.has(r));
  for (let depth = 0; depth < CONTAINER_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    await Promise.all(
      frontier.map(async (r) => {
        const up = (await store.edges(r, 'out', 'WITHIN')).map((e) => e.to);
        within.set(r, up);
        next.push(...up.filter((u) => !within.has(u) && !point.has(u)));
      }),
    );
    frontier = [...new Set(next)];
  }
  const unknown = [...new Set([...within.values(), ...overlaps.values()].flat())].filter((r) => !level.has(r));
  for (const node of unknown.length === 0 ? [] : await store.getNodes(unknown)) {
    if (node.kind === 'region') level.set(node.slug, (node as NodeDoc<'region'>).data.level);
  }
  return { point, within, overlaps, level };
}
