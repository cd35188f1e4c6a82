import { nodeVisible, storeScope } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EDGE_KINDS, isEdgeKind, type EdgeKind, type NodeKind, NODE_KINDS } from '../model/kinds.js';
import type { EdgeDoc } from '../model/nodes.js';
import type { Indexed, NodeScan } from '../store/graph-store.js';
import type { Adjacency, GraphReadView } from '../store/read-view.js';
import type { Expr, NodePattern, PathPattern, RelPattern } from './ast.js';
import { evaluate, truth, type Env } from './expressions.js';
import type { Meter } from './meter.js';
import { Row } from './row.js';
import { kindOfLabel, viewNodeProperty } from './schema.js';
import { equals, fromJson, NodeValue, RelValue } from './values.js';

/** What matching reads the graph through: the store's index, the caller's view of it, the budget. */
export interface MatchContext {
  view: GraphReadView;
  principal: Principal;
  minConfidence: number;
  meter: Meter;
  env: Env;
  /** Per (state, tier) code pair of the view: 0 not yet asked, 1 visible, 2 not (kit's nodeVisible, asked once per pair). */
  scopeSeen: Int8Array;
  /** Per MATCH (its patterns), what does not change from row to row. */
  plans: Map<readonly PathPattern[], ClausePlan>;
}

/**
 * What matching a MATCH on a row decides before reading the graph, the same for every
 * row: its WHERE's equality hints, whether relationships must be tracked, and per path
 * pattern and set of its node variables already bound, where it starts and how it walks.
 */
interface ClausePlan {
  hints: Hints;
  track: boolean;
  paths: Map<PathPattern, Map<string, PathPlan>>;
}

interface PathPlan {
  anchor: number;
  /** labelKind of the anchor's node pattern. */
  anchorKind: number;
  steps: Step[];
}

/** The context a query matches in: its view of the store, its caller, budget and parameters. */
export function matchContext(
  view: GraphReadView,
  principal: Principal,
  minConfidence: number,
  meter: Meter,
  env: Env,
): MatchContext {
  return {
    view,
    principal,
    minConfidence,
    meter,
    env,
    scopeSeen: new Int8Array(view.states.length * view.tiers.length),
    plans: new Map(),
  };
}

/** Where a match goes once it is whole: the next clause, or the next pattern of the MATCH. */
type Emit = (row: Row) => void;

/** Properties a node query can be narrowed by, per node kind (the store's indexes). */
const INDEXED_BY: Partial<Record<NodeKind, Partial<Record<string, Indexed>>>> = {
  region: { level: 'level' },
  contest: { level: 'level' },
  office: { level: 'level' },
};

/**
 * Emits every way the patterns of one MATCH bind on a row, the WHERE applied; true when
 * there was one. Each pattern is matched from its cheapest node (one already bound, a slug,
 * an indexed property, a label) outward along its relationships, depth first, so a match
 * is handed on as soon as it is whole and no list of partial matches is built. Nodes
 * outside the caller's scope, and candidacies below its confidence floor, do not exist
 * here, as in every other layer. openCypher matches each relationship at most once per
 * MATCH: with more than one relationship pattern, or a variable-length one, the
 * relationships bound so far are kept on a stack and checked.
 */
export function matchPatterns(
  ctx: MatchContext,
  patterns: readonly PathPattern[],
  wherePredicate: Expr | undefined,
  row: Row,
  emit: Emit,
): boolean {
  let plan = ctx.plans.get(patterns);
  if (plan === undefined) {
    const rels = patterns.flatMap((p) => p.rels);
    const track = rels.length > 1 || rels.some((r) => r.hops !== undefined);
    ctx.plans.set(patterns, (plan = { hints: equalityHints(wherePredicate), track, paths: new Map() }));
  }
  const clause = plan;
  const used: EdgeDoc[] | undefined = clause.track ? [] : undefined;
  let found = false;
  const next = (i: number, r: Row): void => {
    if (i < patterns.length) {
      matchPath(ctx, clause, patterns[i]!, r, used, (m) => next(i + 1, m));
    } else if (wherePredicate === undefined || truth(evaluate(wherePredicate, r, ctx.env)) === true) {
      found = true;
      emit(r);
    }
  };
  next(0, row);
  return found;
}

/** The variables a MATCH's patterns bind, in order (for OPTIONAL MATCH's nulls). */
export function patternVariables(patterns: readonly PathPattern[]): string[] {
  const names = new Set<string>();
  for (const p of patterns) {
    for (const n of p.nodes) if (n.variable !== undefined) names.add(n.variable);
    for (const r of p.rels) if (r.variable !== undefined) names.add(r.variable);
  }
  return [...names];
}

/** `v.prop = expr` (and `v.prop IN list`) conjuncts of a WHERE: where a pattern may start. */
type Hints = Map<string, [string, Expr, 'eq' | 'in'][]>;

function equalityHints(e: Expr | undefined, out: Hints = new Map()): Hints {
  if (e === undefined) return out;
  if (e.kind === 'logic' && e.op === 'and') {
    for (const a of e.args) equalityHints(a, out);
  } else if ((e.kind === 'compare' && e.op === '=') || e.kind === 'in') {
    for (const [side, other] of e.kind === 'in'
      ? [[e.left, e.right] as const]
      : ([
          [e.left, e.right],
          [e.right, e.left],
        ] as const)) {
      if (side.kind === 'property' && side.of.kind === 'variable') {
        const list = out.get(side.of.name) ?? [];
        list.push([side.key, other, e.kind === 'in' ? 'in' : 'eq']);
        out.set(side.of.name, list);
      }
    }
  }
  return out;
}

/**
 * One path pattern from its anchor: the relationships to its right in order, then those to
 * its left. `at` holds the node bound at each position of the pattern so far.
 */
function matchPath(
  ctx: MatchContext,
  clause: ClausePlan,
  p: PathPattern,
  row: Row,
  used: EdgeDoc[] | undefined,
  emit: Emit,
): void {
  const hints = clause.hints;
  const { anchor, anchorKind, steps } = pathPlan(ctx, clause, p, row);
  const at: number[] = p.nodes.map(() => -1);
  // Where each step hands its matches: the next step, and after the last, `emit`.
  const onward: Emit[] = steps.map((_, s) => (m) => go(s + 1, m));
  const go = (s: number, r: Row): void => {
    if (s === steps.length) emit(r);
    else expand(ctx, steps[s]!, at, r, used, onward[s]!);
  };
  const start = p.nodes[anchor]!;
  forEachAnchor(ctx, start, row, hints, (id) => {
    const bound = bindNode(ctx, start, anchorKind, id, row);
    if (bound === undefined) return;
    at[anchor] = id;
    go(0, bound);
  });
}

/** The plan of a path pattern for the node variables the row binds (made on the first row that binds them so). */
function pathPlan(ctx: MatchContext, clause: ClausePlan, p: PathPattern, row: Row): PathPlan {
  let bound = '';
  for (const n of p.nodes) bound += n.variable !== undefined && row.has(n.variable) ? '1' : '0';
  let byBound = clause.paths.get(p);
  if (byBound === undefined) clause.paths.set(p, (byBound = new Map()));
  let plan = byBound.get(bound);
  if (plan === undefined) {
    const anchor = chooseAnchor(p, row, clause.hints);
    const steps: Step[] = [];
    for (let j = anchor; j < p.rels.length; j++) steps.push(stepOf(ctx, p, j, j + 1));
    for (let j = anchor - 1; j >= 0; j--) steps.push(stepOf(ctx, p, j + 1, j));
    byBound.set(bound, (plan = { anchor, anchorKind: labelKind(p.nodes[anchor]!), steps }));
  }
  return plan;
}

/** The node a pattern is matched from: bound > slug > indexed or scoped property > label > any. */
function chooseAnchor(p: PathPattern, row: Row, hints: Hints): number {
  let best = 0;
  let bestScore = Infinity;
  p.nodes.forEach((n, i) => {
    const s = anchorScore(n, row, hints);
    if (s < bestScore) [best, bestScore] = [i, s];
  });
  return best;
}

function anchorScore(n: NodePattern, row: Row, hints: Hints): number {
  if (n.variable !== undefined && row.has(n.variable)) return 0;
  const keys = new Set([...n.properties.map(([k]) => k), ...(hints.get(n.variable ?? '') ?? []).map(([k]) => k)]);
  if (keys.has('slug')) return 1;
  const kind = n.labels.length === 1 ? kindOfLabel(n.labels[0]!) : undefined;
  if (kind !== undefined && [...keys].some((k) => k === 'state' || INDEXED_BY[kind]?.[k] !== undefined)) return 2;
  if (kind !== undefined) return 3;
  return 4;
}

/** Visits the nodes the anchor may be, read through the cheapest index the pattern allows. */
function forEachAnchor(ctx: MatchContext, n: NodePattern, row: Row, hints: Hints, visit: (id: number) => void): void {
  if (n.variable !== undefined && row.has(n.variable)) {
    const v = row.get(n.variable);
    const id = !(v instanceof NodeValue) ? -1 : v.view === ctx.view ? v.id : ctx.view.idOf(v.doc.slug);
    if (id >= 0) visit(id);
    return;
  }
  const wanted = constraintsOf(ctx, n, row, hints);
  if (wanted.slug !== undefined) {
    ctx.meter.examine(wanted.slug.length);
    for (const slug of wanted.slug) {
      const id = ctx.view.idOf(slug);
      if (id >= 0 && visible(ctx, id)) visit(id);
    }
    return;
  }
  if (n.labels.length > 1) return;
  const kinds: readonly NodeKind[] =
    n.labels.length === 1 ? [kindOfLabel(n.labels[0]!)].filter((k) => k !== undefined) : NODE_KINDS;
  for (const kind of kinds) scan(ctx, kind, wanted, visit);
}

interface Wanted {
  slug?: string[];
  state?: string[];
  match: Partial<Record<Indexed, string[]>>;
}

/** What equalities on the anchor's slug, state and indexed properties ask, where they can be known before matching. */
function constraintsOf(ctx: MatchContext, n: NodePattern, row: Row, hints: Hints): Wanted {
  const wanted: Wanted = { match: {} };
  const kind = n.labels.length === 1 ? kindOfLabel(n.labels[0]!) : undefined;
  const all: [string, Expr, 'eq' | 'in'][] = [
    ...n.properties.map(([k, e]) => [k, e, 'eq'] as [string, Expr, 'eq']),
    ...(hints.get(n.variable ?? '') ?? []),
  ];
  for (const [key, expr, how] of all) {
    const values = knownStrings(expr, how, row, ctx.env);
    if (values === undefined) continue;
    const narrow = (old: string[] | undefined) => (old === undefined ? values : old.filter((v) => values.includes(v)));
    if (key === 'slug') wanted.slug = narrow(wanted.slug);
    else if (key === 'state') wanted.state = narrow(wanted.state);
    else {
      const idx = kind === undefined ? undefined : INDEXED_BY[kind]?.[key];
      if (idx !== undefined) wanted.match[idx] = narrow(wanted.match[idx]);
    }
  }
  return wanted;
}

/** The strings an equality pins a property to, when its other side needs no variable of this match; else undefined. */
function knownStrings(e: Expr, how: 'eq' | 'in', row: Row, env: Env): string[] | undefined {
  if (!dependsOnlyOn(e, row)) return undefined;
  const v = evaluate(e, row, env);
  const list = how === 'in' ? v : [v];
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) return undefined;
  // `IN ['a', 'a']` asks for one node once: a slug read twice would bind it twice.
  return [...new Set(list as string[])];
}

function dependsOnlyOn(e: Expr, row: Row): boolean {
  if (e.kind === 'variable') return row.has(e.name);
  if (e.kind === 'aggregate') return false;
  if (e.kind === 'literal' || e.kind === 'parameter') return true;
  if (e.kind === 'list') return e.items.every((i) => dependsOnlyOn(i, row));
  if (e.kind === 'property') return dependsOnlyOn(e.of, row);
  return false;
}

/** Visits the store's nodes of a kind, the caller's scope and the constraints applied inside the store's index. */
function scan(ctx: MatchContext, kind: NodeKind, wanted: Wanted, visit: (id: number) => void): void {
  const scope = storeScope(ctx.principal);
  const states =
    wanted.state === undefined
      ? scope.states
      : wanted.state.filter((s) => scope.states === undefined || scope.states.includes(s));
  if (states !== undefined && states.length === 0) return;
  const q: NodeScan = {
    kind,
    ...(states === undefined ? {} : { states }),
    ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
    ...(Object.keys(wanted.match).length === 0 ? {} : { match: wanted.match }),
    ...(kind === 'candidacy' && ctx.minConfidence > 0 ? { minConfidence: ctx.minConfidence } : {}),
  };
  ctx.view.scan(q, (id) => {
    ctx.meter.examine();
    if (visible(ctx, id)) visit(id);
  });
}

const CANDIDACY = NODE_KINDS.indexOf('candidacy');

/**
 * Whether the caller may see a node: its scope (kit's nodeVisible, asked once per distinct
 * state and tier), and for a candidacy its confidence floor.
 */
function visible(ctx: MatchContext, id: number): boolean {
  const { view } = ctx;
  const pair = view.stateOf[id]! * view.tiers.length + view.tierOf[id]!;
  let seen = ctx.scopeSeen[pair]!;
  if (seen === 0) {
    const scope = { state: view.states[view.stateOf[id]!]!, tier: view.tiers[view.tierOf[id]!]! };
    ctx.scopeSeen[pair] = seen = nodeVisible(ctx.principal, scope) ? 1 : 2;
  }
  if (seen === 2) return false;
  return view.kindOf[id] !== CANDIDACY || view.confidence[id]! >= ctx.minConfidence;
}

const ANY_KIND = -1;
const NO_KIND = -2;

/** The kind (its position in NODE_KINDS) every label of a node pattern names; ANY_KIND with no label, NO_KIND when no node can have them all. */
function labelKind(n: NodePattern): number {
  const kinds = new Set(n.labels.map(kindOfLabel));
  const [only] = kinds;
  return n.labels.length === 0 ? ANY_KIND : kinds.size === 1 && only !== undefined ? NODE_KINDS.indexOf(only) : NO_KIND;
}

/** The row with a node bound to a node pattern, when its label and inline properties fit (and any earlier binding agrees). */
function bindNode(ctx: MatchContext, n: NodePattern, kind: number, id: number, row: Row): Row | undefined {
  if (kind !== ANY_KIND && kind !== ctx.view.kindOf[id]) return undefined;
  // An index loop: this runs for every node a pattern meets, and must not allocate.
  const props = n.properties;
  for (let i = 0; i < props.length; i++) {
    const [key, expr] = props[i]!;
    if (equals(fromJson(viewNodeProperty(ctx.view, id, key)), evaluate(expr, row, ctx.env)) !== true) return undefined;
  }
  if (n.variable === undefined) return row;
  const d = ctx.view.docs[id]!;
  const prior = row.get(n.variable);
  if (prior !== undefined)
    return prior instanceof NodeValue && (prior.view === ctx.view ? prior.id === id : prior.doc.slug === d.slug)
      ? row
      : undefined;
  return row.with(n.variable, new NodeValue(d, ctx.view, id));
}

/** One relationship of a path pattern as the match crosses it: from node pattern `from` to `to` (adjacent). */
interface Step {
  from: number;
  to: number;
  rel: RelPattern;
  target: NodePattern;
  /** labelKind(target). */
  targetKind: number;
  /** Crossed against the pattern's arrow (matching leftward from the anchor). */
  reverse: boolean;
  ways: Way[];
}

function stepOf(ctx: MatchContext, p: PathPattern, from: number, to: number): Step {
  const reverse = to < from;
  const rel = p.rels[Math.min(from, to)]!;
  const target = p.nodes[to]!;
  return { from, to, rel, target, targetKind: labelKind(target), reverse, ways: waysOf(ctx, rel, reverse) };
}

/** Extends a match across a step: one hop, or hop by hop for a variable length, trail by trail. */
function expand(ctx: MatchContext, st: Step, at: number[], row: Row, used: EdgeDoc[] | undefined, emit: Emit): void {
  if (st.rel.hops === undefined) expandOne(ctx, st, at, row, used, emit);
  else expandPaths(ctx, st, st.rel.hops, at, row, used, emit);
}

/** The one-hop case, the common one: a loop over the adjacency, with no callback (nor closure) per relationship. */
function expandOne(ctx: MatchContext, st: Step, at: number[], row: Row, used: EdgeDoc[] | undefined, emit: Emit): void {
  const { rel, target, to } = st;
  const from = at[st.from]!;
  for (const { adjacency, skipLoops } of st.ways) {
    const { offsets, targets, edges } = adjacency;
    for (let k = offsets[from]!, end = offsets[from + 1]!; k < end; k++) {
      const edge = follow(ctx, rel, skipLoops, from, targets[k]!, edges[k]!, row, used);
      if (edge === undefined) continue;
      used?.push(edge);
      const bound = bindNode(
        ctx,
        target,
        st.targetKind,
        targets[k]!,
        rel.variable === undefined ? row : row.with(rel.variable, new RelValue(edge)),
      );
      if (bound !== undefined) {
        at[to] = targets[k]!;
        emit(bound);
      }
      used?.pop();
    }
  }
}

function expandPaths(
  ctx: MatchContext,
  st: Step,
  hops: { min: number; max: number },
  at: number[],
  row: Row,
  used: EdgeDoc[] | undefined,
  emit: Emit,
): void {
  const { rel, target, to } = st;
  const arrive = (id: number, r: Row): void => {
    const bound = bindNode(ctx, target, st.targetKind, id, r);
    if (bound === undefined) return;
    at[to] = id;
    emit(bound);
  };
  const { min, max } = hops;
  const path: EdgeDoc[] = [];
  const bindPath = (): Row => {
    if (rel.variable === undefined) return row;
    const rels = path.map((e) => new RelValue(e));
    return row.with(rel.variable, st.reverse ? rels.reverse() : rels);
  };
  // A path of no relationships (`*0..n`) ends where it starts.
  if (min === 0) arrive(at[st.from]!, bindPath());
  const walk = (from: number): void => {
    for (const { adjacency, skipLoops } of st.ways) {
      const { offsets, targets, edges } = adjacency;
      for (let k = offsets[from]!, end = offsets[from + 1]!; k < end; k++) {
        const edge = follow(ctx, rel, skipLoops, from, targets[k]!, edges[k]!, row, used);
        if (edge === undefined) continue;
        const next = targets[k]!;
        path.push(edge);
        used!.push(edge);
        if (path.length >= min) arrive(next, bindPath());
        if (path.length < max) {
          ctx.meter.examine();
          walk(next);
        }
        path.pop();
        used!.pop();
      }
    }
  };
  if (max >= 1) walk(at[st.from]!);
}

/**
 * The relationship, when the pattern may follow it from node `from` to node `other`: not
 * a loop met already the other way, to a visible node, its inline properties fitting
 * (they may name variables bound earlier in the row), and not used already in this MATCH.
 * Each relationship of the pattern's types met counts as a row examined.
 */
function follow(
  ctx: MatchContext,
  rel: RelPattern,
  skipLoops: boolean,
  from: number,
  other: number,
  edge: EdgeDoc,
  row: Row,
  used: readonly EdgeDoc[] | undefined,
): EdgeDoc | undefined {
  ctx.meter.examine();
  if (skipLoops && other === from) return undefined;
  if (!visible(ctx, other)) return undefined;
  if (rel.properties.length > 0 && !relPropertiesFit(ctx, rel, edge, row)) return undefined;
  if (used !== undefined && used.includes(edge)) return undefined;
  return edge;
}

/** One way a relationship pattern is followed: an edge kind's adjacency in one direction. */
interface Way {
  adjacency: Adjacency;
  /** Skips a relationship from a node to itself: met already the other way (a pattern of either direction). */
  skipLoops: boolean;
}

/**
 * The adjacencies a relationship pattern follows, in the pattern's direction: its types
 * (none: every kind; a type no edge kind has: nothing), out then in for either direction.
 */
function waysOf(ctx: MatchContext, rel: RelPattern, reverse: boolean): Way[] {
  const dir: 'both' | 'out' | 'in' =
    rel.direction === 'both' ? 'both' : (rel.direction === 'out') !== reverse ? 'out' : 'in';
  const kinds: EdgeKind[] = [];
  for (const t of rel.types.length === 0 ? EDGE_KINDS : rel.types) {
    if (isEdgeKind(t) && !kinds.includes(t)) kinds.push(t);
  }
  const ways: Way[] = [];
  for (const d of dir === 'both' ? BOTH : dir === 'out' ? OUT : IN) {
    for (const kind of kinds) {
      const adjacency = ctx.view.adjacency(kind, d);
      if (adjacency !== undefined) ways.push({ adjacency, skipLoops: dir === 'both' && d === 'in' });
    }
  }
  return ways;
}

const BOTH = ['out', 'in'] as const;
const OUT = ['out'] as const;
const IN = ['in'] as const;

function relPropertiesFit(ctx: MatchContext, rel: RelPattern, edge: EdgeDoc, row: Row): boolean {
  for (const [k, expr] of rel.properties) {
    if (equals(fromJson(edge.data[k]), evaluate(expr, row, ctx.env)) !== true) return false;
  }
  return true;
}
