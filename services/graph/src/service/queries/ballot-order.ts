import { TIERS } from '../../model/kinds.js';
import type { NodeDoc } from '../../model/nodes.js';

/** Contests in the order ballots print them: offices, then judges' retentions, then questions. */
const PARTS = ['office', 'retention', 'question'] as const;

function part(c: NodeDoc<'contest'>): number {
  if (c.data.office === '') return PARTS.indexOf('question');
  return PARTS.indexOf(c.data.type === 'retention' ? 'retention' : 'office');
}

/**
 * Orders a ballot's contests national first, as the API documents and as ballots are
 * printed: contests for offices, then judges' retentions, then ballot questions; within
 * each, by the office's tier (federal, state, county, municipal, school, judicial, special),
 * then by the contest's region in `regionOrder` (the point's regions as geo lists them,
 * widest first), then by slug. So the President, then the U.S. Senate and House, lead a
 * ballot whose state-wide amendments would otherwise sort first by name.
 */
export function ballotOrder(
  regionOrder: ReadonlyMap<string, number>,
): (a: NodeDoc<'contest'>, b: NodeDoc<'contest'>) => number {
  const tier = (c: NodeDoc<'contest'>) => {
    const i = (TIERS as readonly string[]).indexOf(c.tier);
    return i === -1 ? TIERS.length : i;
  };
  const region = (c: NodeDoc<'contest'>) => regionOrder.get(c.data.region) ?? regionOrder.size;
  return (a, b) =>
    part(a) - part(b) || tier(a) - tier(b) || region(a) - region(b) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}
