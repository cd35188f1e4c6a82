import type { Indexed, NodeScan } from '../graph-store.js';
import type { Entry } from './kind-index.js';

/**
 * The whole of a NodeQuery's (or NodeScan's) filter as one predicate over index entries. The planner
 * narrows the candidates with one index; this checks every condition on each of them,
 * including the one the index already guaranteed (cheaper than tracking which it was).
 */
export function nodeFilter(q: NodeScan): (e: Entry) => boolean {
  const states = nonEmptySet(q.states);
  const tiers = nonEmptySet(q.tiers);
  const match = Object.entries(q.match ?? {})
    .filter((kv): kv is [Indexed, readonly string[]] => kv[1] !== undefined)
    .map(([field, values]) => [field, new Set(values)] as const);
  const { dateFrom, dateTo, minConfidence } = q;
  return (e) => {
    const n = e.node;
    if (states !== undefined && !states.has(n.state)) return false;
    if (tiers !== undefined && n.tier !== '' && !tiers.has(n.tier)) return false;
    for (const [field, values] of match) {
      const v = e.keys.match[field];
      if (v === undefined || !values.has(v)) return false;
    }
    if (dateFrom !== undefined || dateTo !== undefined) {
      const d = e.keys.date;
      if (d === undefined || (dateFrom !== undefined && d < dateFrom) || (dateTo !== undefined && d > dateTo))
        return false;
    }
    // Only candidacies carry a confidence; other kinds are not filtered by it.
    if (minConfidence !== undefined && e.keys.confidence !== undefined && e.keys.confidence < minConfidence)
      return false;
    return true;
  };
}

function nonEmptySet(values: readonly string[] | undefined): Set<string> | undefined {
  return values === undefined || values.length === 0 ? undefined : new Set(values);
}
