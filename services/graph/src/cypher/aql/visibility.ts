import { storeScope } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { aql, join, type AqlQuery } from 'arangojs/aql';

/**
 * What a key may see, as the filter the compiler puts on every node the query binds:
 * anchors, both ends of every relationship, every node along a variable-length path. The
 * same rule as the embedded path (match.ts `scan` and `visible`, kit's storeScope and
 * nodeVisible): the node's state among the key's states or '' (national), its tier among
 * the key's tiers or '' (untiered), and a candidacy's confidence at least min_confidence.
 * The environment (test or live) is not a node attribute: a deployment serves one, with its
 * own database, and refuses the other's keys before a query is parsed (kit's assertEnvironment).
 */
export interface Visibility {
  states: string[] | undefined;
  tiers: string[] | undefined;
  minConfidence: number;
}

export function visibilityOf(principal: Principal, minConfidence: number): Visibility {
  const { states, tiers } = storeScope(principal);
  return { states, tiers, minConfidence };
}

/** The condition that the node document in `n` is visible (`true` for a key that sees everything). */
export function visibleAql(n: AqlQuery, v: Visibility): AqlQuery {
  const parts: AqlQuery[] = [];
  if (v.states !== undefined) parts.push(aql`${n}.state IN ${v.states}`);
  if (v.tiers !== undefined) parts.push(aql`${n}.tier IN ${v.tiers}`);
  if (v.minConfidence > 0) parts.push(aql`(${n}.kind != "candidacy" OR ${n}.data.confidence >= ${v.minConfidence})`);
  return parts.length === 0 ? aql`true` : aql`(${join(parts, ' AND ')})`;
}
