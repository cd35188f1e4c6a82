import { nodeVisible, storeScope } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { isEdgeKind, type EdgeKind, type NodeKind, NODE_KINDS } from '../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import { edgeId } from '../model/nodes.js';
import type { GraphStore, Indexed, NodeQuery } from '../store/graph-store.js';
import type { Expr, NodePattern, PathPattern, RelPattern } from './ast.js';
import { evaluate, truth, type Env, type Row } from './expressions.js';
import type { Meter } from './meter.js';
import { kindOfLabel, nodeProperty } from './schema.js';
import { equals, fromJson, NodeValue, RelValue, type Value } from './values.js';

/** What matching reads the graph through: the store, the caller's view of it, the budget. */
export interface MatchContext {
  store: GraphStore;
  principal: Principal;
  minConfidence: number;
  meter: Meter;
  env: Env;
}

/** A partial match: the row so far and the relationships it used (each at most once per MATCH). */
interface Bound {
  row: Map<string, Value>;
  used: ReadonlySet<string>;
}

/** Properties a node query can be narrowed by, per node kind (the store's indexes). */
const INDEXED_BY: Partial<Record<NodeKind, Partial<Record<string, Indexed>>>> = {
  region: { level: 'level' },
  contest: { level: 'level' },
  office: { level: 'level' },
};

/**
 * Every way the patterns of one MATCH bind on a row, the WHERE applied: each pattern from
 * its cheapest node (one already bound, a slug, an indexed property, a label) outward along
 * its relationships. Nodes outside the caller's scope, and candidacies below its confidence
 * floor, do not exist here, as in every other layer.
 */
export async function matchPatterns(
  ctx: MatchContext,
  patterns: readonly PathPattern[],
  wherePredicate: Expr | undefined,
  row: Row,
): Promise<Map<string, Value>[]> {
  const hints = equalityHints(wherePredicate);
  let partials: Bound[] = [{ row: new Map(row), used: new Set() }];
  for (const p of patterns) {
    const next: Bound[] = [];
    for (const partial of partials) next.push(...(await matchPath(ctx, p, partial, hints)));
    partials = next;
  }
  const out: Map<string, Value>[] = [];
  for (const { row: r } of partials) {
    if (wherePredicate === undefined || truth(evaluate(wherePredicate, r, ctx.env)) === true) out.push(r);
  }
  return out;
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

/** A match of one path pattern in progress: the nodes found for its node patterns so far, by position. */
interface PathMatch extends Bound {
  nodes: (NodeDoc | undefined)[];
}

async function matchPath(ctx: MatchContext, p: PathPattern, start: Bound, hints: Hints): Promise<Bound[]> {
  const anchor = chooseAnchor(p, start.row, hints);
  let partials: PathMatch[] = [];
  for (const node of await anchorCandidates(ctx, p.nodes[anchor]!, start.row, hints)) {
    const bound = bindNode(ctx, p.nodes[anchor]!, node, start);
    if (bound === undefined) continue;
    const nodes: (NodeDoc | undefined)[] = p.nodes.map(() => undefined);
    nodes[anchor] = node;
    partials.push({ ...bound, nodes });
  }
  for (let j = anchor; j < p.rels.length; j++) partials = await expand(ctx, partials, p, j, j + 1);
  for (let j = anchor - 1; j >= 0; j--) partials = await expand(ctx, partials, p, j + 1, j);
  return partials;
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

/** Nodes the anchor may be, read through the cheapest index the pattern allows. */
async function anchorCandidates(ctx: MatchContext, n: NodePattern, row: Row, hints: Hints): Promise<NodeDoc[]> {
  if (n.variable !== undefined && row.has(n.variable)) {
    const v = row.get(n.variable);
    return v instanceof NodeValue ? [v.doc] : [];
  }
  const wanted = constraintsOf(ctx, n, row, hints);
  if (wanted.slug !== undefined) {
    ctx.meter.examine(wanted.slug.length);
    return (await ctx.store.getNodes(wanted.slug)).filter((d) => visible(ctx, d));
  }
  if (n.labels.length > 1) return [];
  const kinds: readonly NodeKind[] =
    n.labels.length === 1 ? [kindOfLabel(n.labels[0]!)].filter((k) => k !== undefined) : NODE_KINDS;
  const out: NodeDoc[] = [];
  for (const kind of kinds) await scan(ctx, kind, wanted, out);
  return out;
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

/** Pages through the store's nodes of a kind, the caller's scope and the constraints applied inside the store. */
async function scan(ctx: MatchContext, kind: NodeKind, wanted: Wanted, out: NodeDoc[]): Promise<void> {
  const scope = storeScope(ctx.principal);
  const states =
    wanted.state === undefined
      ? scope.states
      : wanted.state.filter((s) => scope.states === undefined || scope.states.includes(s));
  if (states !== undefined && states.length === 0) return;
  const q: Omit<NodeQuery, 'limit' | 'after'> = {
    kind,
    ...(states === undefined ? {} : { states }),
    ...(scope.tiers === undefined ? {} : { tiers: scope.tiers }),
    ...(Object.keys(wanted.match).length === 0 ? {} : { match: wanted.match }),
    ...(kind === 'candidacy' && ctx.minConfidence > 0 ? { minConfidence: ctx.minConfidence } : {}),
  };
  let after: string | undefined;
  do {
    const page = await ctx.store.query({ ...q, ...(after === undefined ? {} : { after }), limit: 1000 });
    ctx.meter.examine(page.nodes.length);
    for (const d of page.nodes) if (visible(ctx, d)) out.push(d);
    after = page.next;
  } while (after !== undefined);
}

/** Whether the caller may see a node: its scope, and for a candidacy its confidence floor. */
function visible(ctx: MatchContext, d: NodeDoc): boolean {
  if (!nodeVisible(ctx.principal, d)) return false;
  return d.kind !== 'candidacy' || (d as NodeDoc<'candidacy'>).data.confidence >= ctx.minConfidence;
}

/** Binds a node to a node pattern when its label and inline properties fit (and any earlier binding agrees). */
function bindNode(ctx: MatchContext, n: NodePattern, d: NodeDoc, p: Bound): Bound | undefined {
  if (!n.labels.every((l) => kindOfLabel(l) === d.kind)) return undefined;
  for (const [key, expr] of n.properties) {
    if (equals(fromJson(nodeProperty(d, key)), evaluate(expr, p.row, ctx.env)) !== true) return undefined;
  }
  if (n.variable === undefined) return p;
  const prior = p.row.get(n.variable);
  if (prior !== undefined) return prior instanceof NodeValue && prior.doc.slug === d.slug ? p : undefined;
  const row = new Map(p.row);
  row.set(n.variable, new NodeValue(d));
  return { row, used: p.used };
}

/** Extends every partial match along the relationship between node patterns `from` and `to` (adjacent). */
async function expand(
  ctx: MatchContext,
  partials: PathMatch[],
  p: PathPattern,
  from: number,
  to: number,
): Promise<PathMatch[]> {
  const reverse = to < from;
  const rel = p.rels[Math.min(from, to)]!;
  const out: PathMatch[] = [];
  const hops = rel.hops ?? { min: 1, max: 1 };
  for (const m of partials) {
    for (const path of await walk(ctx, m.nodes[from]!, rel, reverse, hops, m)) {
      // A path of no relationships (`*0..n`) ends where it starts.
      const target = path.at(-1)?.node ?? m.nodes[from]!;
      const bound = bindNode(ctx, p.nodes[to]!, target, bindRel(rel, path, m, reverse));
      if (bound === undefined) continue;
      const nodes = [...m.nodes];
      nodes[to] = target;
      out.push({ ...bound, nodes });
    }
  }
  return out;
}

interface Step {
  edge: EdgeDoc;
  node: NodeDoc;
}

/**
 * Every walk of `hops.min`..`hops.max` relationships from a node, no relationship twice in
 * the MATCH; with `hops.min` 0, the walk of none too.
 */
async function walk(
  ctx: MatchContext,
  from: NodeDoc,
  rel: RelPattern,
  reverse: boolean,
  hops: { min: number; max: number },
  p: Bound,
): Promise<Step[][]> {
  const found: Step[][] = hops.min === 0 ? [[]] : [];
  let frontier: { at: NodeDoc; steps: Step[] }[] = [{ at: from, steps: [] }];
  for (let depth = 1; depth <= hops.max && frontier.length > 0; depth++) {
    const next: { at: NodeDoc; steps: Step[] }[] = [];
    for (const f of frontier) {
      for (const step of await neighbours(ctx, f.at, rel, reverse, p.row)) {
        const id = edgeId(step.edge);
        if (p.used.has(id) || f.steps.some((s) => edgeId(s.edge) === id)) continue;
        const steps = [...f.steps, step];
        if (depth >= hops.min) found.push(steps);
        next.push({ at: step.node, steps });
      }
    }
    frontier = next;
    ctx.meter.examine(next.length);
  }
  return found;
}

/**
 * The relationships of a pattern leaving a node (in the pattern's direction) and the visible
 * nodes at their other ends; its properties are evaluated on the row so far (they may name
 * variables bound before it).
 */
async function neighbours(
  ctx: MatchContext,
  at: NodeDoc,
  rel: RelPattern,
  reverse: boolean,
  row: Row,
): Promise<Step[]> {
  const dir: 'both' | 'out' | 'in' =
    rel.direction === 'both' ? 'both' : (rel.direction === 'out') !== reverse ? 'out' : 'in';
  const types = rel.types.filter(isEdgeKind) as EdgeKind[];
  if (rel.types.length > 0 && types.length === 0) return [];
  const edges: { edge: EdgeDoc; other: string }[] = [];
  for (const d of dir === 'both' ? (['out', 'in'] as const) : [dir]) {
    for (const kind of rel.types.length === 0 ? [undefined] : types) {
      for (const e of await ctx.store.edges(at.slug, d, kind)) {
        // A relationship from a node to itself is met once, not once per direction.
        if (dir === 'both' && d === 'in' && e.from === e.to) continue;
        edges.push({ edge: e, other: d === 'out' ? e.to : e.from });
      }
    }
  }
  ctx.meter.examine(edges.length);
  const matching = edges.filter(({ edge }) =>
    rel.properties.every(([k, expr]) => equals(fromJson(edge.data[k]), evaluate(expr, row, ctx.env)) === true),
  );
  const nodes = new Map((await ctx.store.getNodes([...new Set(matching.map((m) => m.other))])).map((d) => [d.slug, d]));
  const out: Step[] = [];
  for (const { edge, other } of matching) {
    const node = nodes.get(other);
    if (node !== undefined && visible(ctx, node)) out.push({ edge, node });
  }
  return out;
}

/** Binds the relationship variable (a list for a variable-length pattern) and marks the relationships used. */
function bindRel(rel: RelPattern, path: Step[], p: Bound, reverse: boolean): Bound {
  const used = new Set(p.used);
  for (const s of path) used.add(edgeId(s.edge));
  if (rel.variable === undefined) return { row: p.row, used };
  const row = new Map(p.row);
  const rels = path.map((s) => new RelValue(s.edge));
  row.set(rel.variable, rel.hops === undefined ? rels[0]! : reverse ? rels.reverse() : rels);
  return { row, used };
}
