import { aql, literal, type AqlQuery } from 'arangojs/aql';
import type { DocumentCollection, EdgeCollection } from 'arangojs/collections';
import type { NodeKind } from '../../model/kinds.js';
import type { Clause, Expr, NodePattern, PathPattern, RelPattern } from '../ast.js';
import { patternVariables } from '../match.js';
import { kindOfLabel } from '../schema.js';
import { compileExpr, isScalar, property, type Binding, type ExprContext } from './expression.js';
import { ref, type Ops } from './ops.js';
import { accessAql, accessOf } from './properties.js';
import { equals, isNode, truth } from './semantics.js';
import { visibleAql, type Visibility } from './visibility.js';

/** What compiling a MATCH needs besides the clause: the collections and the key's view. */
export interface MatchEnv {
  nodes: DocumentCollection;
  edges: EdgeCollection;
  visibility: Visibility;
  expr: ExprContext;
}

/**
 * MATCH and OPTIONAL MATCH as AQL loops. Each path pattern is walked from one node (one
 * already bound, else one pinned by its slug, else the first) outward, a FOR over the
 * edges for each relationship and a traversal for each variable-length one; every node it
 * binds, anonymous or not, is filtered by the key's visibility. openCypher binds a
 * relationship once per MATCH (the evaluator's `used`): when a MATCH has more than one
 * relationship pattern, their relationships must all differ. OPTIONAL MATCH runs as a
 * subquery whose rows, or one row of nulls for the new variables, continue the query.
 */
export function compileMatch(
  clause: Clause & { kind: 'match' },
  ops: Ops,
  scope: Map<string, Binding>,
  env: MatchEnv,
): void {
  if (!clause.optional) {
    matchInto(clause.patterns, clause.where, ops, scope, env);
    return;
  }
  const body = ops.child();
  // A subquery's first statement is a loop, as at the top: the one row the clause extends.
  body.push(aql`FOR ${body.names.fresh('o')} IN [null]`);
  const inner = new Map(scope);
  matchInto(clause.patterns, clause.where, body, inner, env);
  const fresh = patternVariables(clause.patterns).filter((n) => !scope.has(n) && inner.has(n));
  const found = ops.let(aql`(${body.toQuery()}
    RETURN [${aqlList(fresh.map((n) => inner.get(n)!.ref))}])`);
  const row = ops.names.fresh('o');
  ops.push(aql`FOR ${row} IN (LENGTH(${found}) > 0 ? ${found} : [[]])`);
  fresh.forEach((n, i) => {
    const v = ops.names.fresh('v');
    ops.push(aql`LET ${v} = ${row}[${literal(i)}]`);
    scope.set(n, { ...inner.get(n)!, ref: ref(v) });
  });
}

function aqlList(items: AqlQuery[]): AqlQuery {
  return items.reduce((acc, x, i) => (i === 0 ? x : aql`${acc}, ${x}`), aql``);
}

function matchInto(
  patterns: readonly PathPattern[],
  where: Expr | undefined,
  ops: Ops,
  scope: Map<string, Binding>,
  env: MatchEnv,
): void {
  const used: AqlQuery[] = [];
  for (const p of patterns) matchPath(p, ops, scope, env, used);
  if (used.length > 1) {
    const all = ops.let(aql`FLATTEN([${aqlList(used)}])`);
    ops.push(aql`FILTER LENGTH(UNIQUE(${all})) == LENGTH(${all})`);
  }
  if (where !== undefined) {
    const t = truth(ops, compileExpr(where, ops, scope, env.expr));
    ops.push(aql`FILTER ${t} == true`);
  }
}

/** The node a path is walked from: one bound already, else one pinned by slug, else the first. */
function anchorOf(p: PathPattern, scope: ReadonlyMap<string, Binding>): number {
  const bound = p.nodes.findIndex((n) => n.variable !== undefined && scope.has(n.variable));
  if (bound >= 0) return bound;
  const slug = p.nodes.findIndex((n) => n.properties.some(([k]) => k === 'slug'));
  return slug >= 0 ? slug : 0;
}

function matchPath(p: PathPattern, ops: Ops, scope: Map<string, Binding>, env: MatchEnv, used: AqlQuery[]): void {
  const anchor = anchorOf(p, scope);
  const at: AqlQuery[] = [];
  at[anchor] = bindAnchor(p.nodes[anchor]!, ops, scope, env);
  for (let j = anchor; j < p.rels.length; j++) at[j + 1] = expand(p, j, at[j]!, true, ops, scope, env, used);
  for (let j = anchor - 1; j >= 0; j--) at[j] = expand(p, j, at[j + 1]!, false, ops, scope, env, used);
}

/** The kind a node pattern's labels name (undefined when none or they disagree). */
function kindOf(n: NodePattern): NodeKind | undefined {
  const kinds = new Set(n.labels.map(kindOfLabel));
  const [k] = kinds;
  return kinds.size === 1 ? k : undefined;
}

function bindAnchor(n: NodePattern, ops: Ops, scope: Map<string, Binding>, env: MatchEnv): AqlQuery {
  const prior = n.variable === undefined ? undefined : scope.get(n.variable);
  if (prior !== undefined) {
    // A variable bound by an earlier clause: only a node can be matched again (a null from OPTIONAL MATCH matches nothing).
    ops.push(aql`FILTER ${isNode(prior.ref)}`);
    checkNode(n, prior.ref, prior.sort === 'node' ? prior.kind : undefined, ops, scope, env);
    return prior.ref;
  }
  const v = ops.names.fresh('v');
  ops.push(aql`FOR ${v} IN ${env.nodes}`);
  return bindNew(n, ref(v), ops, scope, env);
}

/** Filters a node just read (its visibility, labels, inline properties) and binds its variable. */
function bindNew(n: NodePattern, v: AqlQuery, ops: Ops, scope: Map<string, Binding>, env: MatchEnv): AqlQuery {
  ops.push(aql`FILTER ${visibleAql(v, env.visibility)}`);
  const prior = n.variable === undefined ? undefined : scope.get(n.variable);
  if (prior !== undefined) {
    // The pattern names a node bound earlier in this MATCH (or before): the same document.
    ops.push(aql`FILTER ${v}._id == ${prior.ref}._id`);
    checkNode(n, v, prior.sort === 'node' ? prior.kind : undefined, ops, scope, env);
    return v;
  }
  const kind = kindOf(n);
  checkNode(n, v, kind, ops, scope, env);
  if (n.variable !== undefined) scope.set(n.variable, { sort: 'node', ref: v, kind });
  return v;
}

/**
 * A node pattern's labels and inline properties on a node: each label must be its kind (a
 * label no kind has matches nothing), each property equal (openCypher's `=`, so a null
 * matches nothing). A property pinned to a scalar is filtered first as AQL's plain `==` on
 * its attribute, which the optimizer can serve from an index; the exact test follows.
 */
function checkNode(
  n: NodePattern,
  v: AqlQuery,
  kind: NodeKind | undefined,
  ops: Ops,
  scope: ReadonlyMap<string, Binding>,
  env: MatchEnv,
): void {
  for (const label of n.labels) {
    const k = kindOfLabel(label);
    ops.push(k === undefined ? aql`FILTER false` : aql`FILTER ${v}.kind == ${k}`);
  }
  const self: Binding = { sort: 'node', ref: v, kind };
  for (const [key, expr] of n.properties) {
    const value = compileExpr(expr, ops, scope, env.expr);
    const access = kind === undefined ? undefined : accessOf(kind, key);
    if (access !== undefined && !access.blank && !access.orEmpty && isScalar(expr, scope, env.expr))
      ops.push(aql`FILTER ${accessAql(v, access)} == ${value}`);
    const prop = property(ops, self, v, key);
    ops.push(aql`FILTER ${equals(ops, prop, value, isScalar(expr, scope, env.expr))} == true`);
  }
}

const DIRECTION = { out: literal('OUTBOUND'), in: literal('INBOUND'), both: literal('ANY') } as const;

/**
 * Walks relationship `j` of the path from the node in `from` (forward: towards node j+1)
 * and binds the node at its other end.
 */
function expand(
  p: PathPattern,
  j: number,
  from: AqlQuery,
  forward: boolean,
  ops: Ops,
  scope: Map<string, Binding>,
  env: MatchEnv,
  used: AqlQuery[],
): AqlQuery {
  const rel = p.rels[j]!;
  const target = p.nodes[forward ? j + 1 : j]!;
  const dir = rel.direction === 'both' ? 'both' : (rel.direction === 'out') === forward ? 'out' : 'in';
  if (rel.hops !== undefined) return expandPaths(rel, target, from, forward, dir, ops, scope, env, used);
  const e = ops.names.fresh('e');
  ops.push(aql`FOR ${e} IN ${env.edges}`);
  ops.push(
    dir === 'out'
      ? aql`FILTER ${e}._from == ${from}._id`
      : dir === 'in'
        ? aql`FILTER ${e}._to == ${from}._id`
        : aql`FILTER ${e}._from == ${from}._id OR ${e}._to == ${from}._id`,
  );
  if (rel.types.length > 0) ops.push(aql`FILTER ${e}.kind IN ${rel.types}`);
  for (const [key, expr] of rel.properties) {
    const value = compileExpr(expr, ops, scope, env.expr);
    ops.push(aql`FILTER ${equals(ops, aql`${e}.data[${key}]`, value, isScalar(expr, scope, env.expr))} == true`);
  }
  const y = ops.names.fresh('v');
  // A relationship from a node to itself joins it to itself once, whichever way it is read.
  const other =
    dir === 'out'
      ? aql`${e}._to`
      : dir === 'in'
        ? aql`${e}._from`
        : aql`(${e}._from == ${from}._id ? ${e}._to : ${e}._from)`;
  ops.push(aql`FOR ${y} IN ${env.nodes}`);
  ops.push(aql`FILTER ${y}._id == ${other}`);
  const bound = bindNew(target, ref(y), ops, scope, env);
  if (rel.variable !== undefined) scope.set(rel.variable, { sort: 'rel', ref: ref(e) });
  used.push(aql`[${e}._id]`);
  return bound;
}

/**
 * A bounded variable-length relationship as an AQL traversal: paths of min..max
 * relationships, none used twice (`uniqueEdges: "path"`, openCypher's rule within a
 * pattern), every relationship of the types and inline properties asked, every node along
 * the path (not only its ends) visible to the key. An undirected traversal may meet a
 * relationship from a node to itself from both ends; the paths are made distinct, as the
 * evaluator meets such a relationship once. The relationship variable is the list of
 * relationships in the pattern's order, so reversed when the walk went right to left.
 */
function expandPaths(
  rel: RelPattern,
  target: NodePattern,
  from: AqlQuery,
  forward: boolean,
  dir: 'out' | 'in' | 'both',
  ops: Ops,
  scope: Map<string, Binding>,
  env: MatchEnv,
  used: AqlQuery[],
): AqlQuery {
  const hops = rel.hops!;
  const [pv, pe, pp] = [ops.names.fresh('v'), ops.names.fresh('e'), ops.names.fresh('p')];
  const typed = rel.types.length > 0;
  const kindOk = (e: AqlQuery) => (typed ? aql`${e}.kind IN ${rel.types}` : aql`true`);
  const filters: AqlQuery[] = [
    aql`FILTER LENGTH(${pp}.vertices[* FILTER NOT ${visibleAql(aql`CURRENT`, env.visibility)}]) == 0`,
  ];
  if (typed) filters.push(aql`FILTER LENGTH(${pp}.edges[* FILTER NOT (${kindOk(aql`CURRENT`)})]) == 0`);
  if (rel.properties.length > 0) {
    const body = ops.child();
    const ce = body.names.fresh('e');
    for (const [key, expr] of rel.properties) {
      const value = compileExpr(expr, body, scope, env.expr);
      const eq = equals(body, aql`${ce}.data[${key}]`, value, isScalar(expr, scope, env.expr));
      body.push(aql`FILTER ${eq} != true`);
    }
    filters.push(aql`FILTER LENGTH(FOR ${ce} IN ${pp}.edges ${body.toQuery()} LIMIT 1 RETURN 1) == 0`);
  }
  const paths = ops.let(aql`(
    FOR ${pv}, ${pe}, ${pp} IN ${hops.min}..${hops.max} ${DIRECTION[dir]} ${from}._id ${env.edges}
      PRUNE ${pe} != null AND NOT (${visibleAql(ref(pv), env.visibility)} AND ${kindOk(ref(pe))})
      OPTIONS { uniqueVertices: "none", uniqueEdges: "path" }
      ${filters.reduce((a, f) => aql`${a} ${f}`, aql``)}
      RETURN DISTINCT { v: ${pv}, es: ${pp}.edges })`);
  const path = ops.names.fresh('p');
  ops.push(aql`FOR ${path} IN ${paths}`);
  const y = ops.names.fresh('v');
  ops.push(aql`LET ${y} = ${path}.v`);
  const bound = bindNew(target, ref(y), ops, scope, env);
  if (rel.variable !== undefined)
    scope.set(rel.variable, { sort: 'rels', ref: forward ? aql`${path}.es` : ops.let(aql`REVERSE(${path}.es)`) });
  used.push(aql`${path}.es[*]._id`);
  return bound;
}
