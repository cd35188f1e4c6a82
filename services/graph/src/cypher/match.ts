import { nodeVisible, storeScope } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { isEdgeKind, type EdgeKind, type NodeKind, NODE_KINDS } from '../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import { edgeId } from '../model/nodes.js';
import type { GraphStore, Indexed, NodeQuery } from '../store/graph-store.js';
import type { Expr, NodePattern, PathPattern, RelPattern } from './ast.js';
import { evaluate, truth, type Env } from './expressions.js';
import type { Meter } from './meter.js';
import { Row } from './row.js';
import { kindOfLabel, nodeProperty } from './schema.js';
import { equals, fromJson, NodeValue, RelValue } from './values.js';

/** What matching reads the graph through: the store, the caller's view of it, the budget. */
export interface MatchContext {
  store: GraphStore;
  principal: Principal;
  minConfidence: number;
  meter: Meter;
  env: Env;
}

/**
 * A partial match: the row so far, and the relationships it used when the MATCH has more
 * than one relationship pattern or a variable-length one (openCypher matches each
 * relationship at most once per MATCH; with one single-hop relationship there is nothing
 * to check, and nothing is kept).
 */
interface Bound {
  row: Row;
  used: ReadonlySet<string> | undefined;
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
): Promise<Row[]> {
  const hints = equalityHints(wherePredicate);
  const rels = patterns.flatMap((p) => p.rels);
  const track = rels.length > 1 || rels.some((r) => r.hops !== undefined);
  let partials: Bound[] = [{ row, used: track ? new Set() : undefined }];
  for (const p of patterns) {
    const next: Bound[] = [];
    for (const partial of partials) for (const m of await matchPath(ctx, p, partial, hints)) next.push(m);
    partials = next;
  }
  const out: Row[] = [];
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
  return { row: p.row.with(n.variable, new NodeValue(d)), used: p.used };
}

/**
 * Extends every partial match along the relationship between node patterns `from` and `to`
 * (adjacent), hop by hop for a variable length. Each hop reads the relationships of all the
 * partial matches' nodes at once, and the nodes at their other ends in one store call.
 */
async function expand(
  ctx: MatchContext,
  partials: PathMatch[],
  p: PathPattern,
  from: number,
  to: number,
): Promise<PathMatch[]> {
  const reverse = to < from;
  const rel = p.rels[Math.min(from, to)]!;
  const hops = rel.hops ?? { min: 1, max: 1 };
  const known = new Map<string, Step[]>();
  const out: PathMatch[] = [];
  // A path of no relationships (`*0..n`) ends where it starts.
  if (hops.min === 0) {
    for (const m of partials) {
      const bound = bindNode(ctx, p.nodes[to]!, m.nodes[from]!, bindRel(rel, [], m, reverse));
      if (bound === undefined) continue;
      const nodes = m.nodes.slice();
      nodes[to] = m.nodes[from];
      out.push({ ...bound, nodes });
    }
  }
  let frontier: Walk[] = partials.map((m) => ({ m, at: m.nodes[from]!, steps: [] }));
  for (let depth = 1; depth <= hops.max && frontier.length > 0; depth++) {
    await neighbours(
      ctx,
      frontier.map((w) => w.at),
      rel,
      reverse,
      known,
    );
    const next: Walk[] = [];
    for (const w of frontier) {
      for (const step of known.get(w.at.slug)!) {
        // Inline properties may name variables bound earlier in the row: checked per partial match.
        if (
          !rel.properties.every(
            ([k, expr]) => equals(fromJson(step.edge.data[k]), evaluate(expr, w.m.row, ctx.env)) === true,
          )
        )
          continue;
        if (
          w.m.used !== undefined &&
          (w.m.used.has(edgeId(step.edge)) || w.steps.some((s) => sameEdge(s.edge, step.edge)))
        )
          continue;
        const steps = [...w.steps, step];
        if (depth >= hops.min) {
          const bound = bindNode(ctx, p.nodes[to]!, step.node, bindRel(rel, steps, w.m, reverse));
          if (bound !== undefined) {
            const nodes = w.m.nodes.slice();
            nodes[to] = step.node;
            out.push({ ...bound, nodes });
          }
        }
        if (depth < hops.max) next.push({ m: w.m, at: step.node, steps });
      }
    }
    ctx.meter.examine(next.length);
    frontier = next;
  }
  return out;
}

interface Step {
  edge: EdgeDoc;
  node: NodeDoc;
}

/** A walk in progress from a partial match's node: where it is, and the steps so far. */
interface Walk {
  m: PathMatch;
  at: NodeDoc;
  steps: Step[];
}

function sameEdge(a: EdgeDoc, b: EdgeDoc): boolean {
  return a === b || edgeId(a) === edgeId(b);
}

/**
 * Fills `known` with, for every node not in it yet, the relationships of the pattern leaving
 * it (in the pattern's direction) and the visible nodes at their other ends: one `edgesOf`
 * read per direction and type for all the nodes, and one `getNodes` for all the far ends.
 */
async function neighbours(
  ctx: MatchContext,
  at: readonly NodeDoc[],
  rel: RelPattern,
  reverse: boolean,
  known: Map<string, Step[]>,
): Promise<void> {
  const dir: 'both' | 'out' | 'in' =
    rel.direction === 'both' ? 'both' : (rel.direction === 'out') !== reverse ? 'out' : 'in';
  const types = rel.types.filter(isEdgeKind) as EdgeKind[];
  const slugs = [...new Set(at.filter((n) => !known.has(n.slug)).map((n) => n.slug))];
  const found: { edge: EdgeDoc; other: string }[][] = slugs.map(() => []);
  const others = new Set<string>();
  let read = 0;
  // A type no edge kind has matches nothing; no type matches every kind.
  const kinds = rel.types.length === 0 ? [undefined] : types;
  for (const d of dir === 'both' ? (['out', 'in'] as const) : [dir]) {
    for (const kind of kinds) {
      const lists = await ctx.store.edgesOf(slugs, d, kind);
      lists.forEach((edges, i) => {
        read += edges.length;
        for (const e of edges) {
          // A relationship from a node to itself is met once, not once per direction.
          if (dir === 'both' && d === 'in' && e.from === e.to) continue;
          const other = d === 'out' ? e.to : e.from;
          found[i]!.push({ edge: e, other });
          others.add(other);
        }
      });
    }
  }
  ctx.meter.examine(read);
  const nodes = new Map<string, NodeDoc>();
  for (const d of await ctx.store.getNodes([...others])) if (visible(ctx, d)) nodes.set(d.slug, d);
  slugs.forEach((slug, i) => {
    const steps: Step[] = [];
    for (const { edge, other } of found[i]!) {
      const node = nodes.get(other);
      if (node !== undefined) steps.push({ edge, node });
    }
    known.set(slug, steps);
  });
}

/** Binds the relationship variable (a list for a variable-length pattern) and marks the relationships used. */
function bindRel(rel: RelPattern, path: Step[], p: Bound, reverse: boolean): Bound {
  let used = p.used;
  if (used !== undefined) {
    const more = new Set(used);
    for (const s of path) more.add(edgeId(s.edge));
    used = more;
  }
  if (rel.variable === undefined) return { row: p.row, used };
  const rels = path.map((s) => new RelValue(s.edge));
  return { row: p.row.with(rel.variable, rel.hops === undefined ? rels[0]! : reverse ? rels.reverse() : rels), used };
}
