import { NODE_KINDS, type EdgeKind, type NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import type { NodeScan } from '../graph-store.js';
import type { Adjacency, GraphReadView } from '../read-view.js';
import type { Entry, KindIndex } from './kind-index.js';

/** What a layout is built from: the index's nodes per kind, its edges, and its own scan (for what the layout cannot filter). */
export interface LayoutSource {
  kinds: ReadonlyMap<NodeKind, KindIndex>;
  entries: ReadonlyMap<string, Entry>;
  /** Each node with edges leaving it, and those edges. */
  outLists: Iterable<[string, readonly EdgeDoc[]]>;
  scan(q: NodeScan, visit: (node: NodeDoc) => void): void;
}

const KIND_NUMBER = new Map(NODE_KINDS.map((k, i) => [k, i]));

/**
 * A GraphIndex's read view (store/read-view.ts), built whole from it: ids given kind by
 * kind in slug order (and written on the index's entries, so a slug's id is one lookup), the typed columns, and the compressed sparse rows of every edge
 * kind, both directions. The index builds one when a reader asks and keeps it until its
 * next change (graph-index.ts `readView`).
 */
export class ReadLayout implements GraphReadView {
  readonly nodeCount: number;
  readonly docs: NodeDoc[];
  readonly kindOf: Uint8Array;
  readonly stateOf: Uint16Array;
  readonly states: string[] = [];
  readonly tierOf: Uint16Array;
  readonly tiers: string[] = [];
  readonly confidence: Float64Array;
  private readonly ranges = new Map<NodeKind, readonly [number, number]>();
  private readonly outs = new Map<EdgeKind, Adjacency>();
  private readonly ins = new Map<EdgeKind, Adjacency>();

  constructor(private readonly source: LayoutSource) {
    const n = source.entries.size;
    this.nodeCount = n;
    this.docs = new Array<NodeDoc>(n);
    this.kindOf = new Uint8Array(n);
    this.stateOf = new Uint16Array(n);
    this.tierOf = new Uint16Array(n);
    this.confidence = new Float64Array(n);
    const stateCodes = new Map<string, number>();
    const tierCodes = new Map<string, number>();
    const code = (codes: Map<string, number>, names: string[], name: string): number => {
      let c = codes.get(name);
      if (c === undefined) {
        codes.set(name, (c = names.length));
        names.push(name);
      }
      return c;
    };
    let id = 0;
    for (const kind of NODE_KINDS) {
      const first = id;
      const ki = source.kinds.get(kind);
      if (ki !== undefined) {
        for (const slug of ki.slugs.from()) {
          const e = source.entries.get(slug)!;
          this.docs[id] = e.node;
          this.kindOf[id] = KIND_NUMBER.get(kind)!;
          this.stateOf[id] = code(stateCodes, this.states, e.node.state);
          this.tierOf[id] = code(tierCodes, this.tiers, e.node.tier);
          this.confidence[id] = e.keys.confidence ?? NaN;
          e.id = id++;
        }
      }
      this.ranges.set(kind, [first, id]);
    }
    this.buildAdjacency(source.outLists);
  }

  idOf(slug: string): number {
    return this.source.entries.get(slug)?.id ?? -1;
  }

  idsOf(kind: NodeKind): readonly [number, number] {
    return this.ranges.get(kind) ?? [0, 0];
  }

  adjacency(kind: EdgeKind, direction: 'out' | 'in'): Adjacency | undefined {
    return (direction === 'out' ? this.outs : this.ins).get(kind);
  }

  /**
   * The scope (states, tiers) and the confidence floor are read from the columns; a query
   * naming an indexed field or dates goes to the index's own planner instead. Either way
   * the conditions are nodeFilter's (node-filter.ts), tested against it in read-layout.test.ts.
   */
  scan(q: NodeScan, visit: (id: number) => void): void {
    if (q.match !== undefined || q.dateFrom !== undefined || q.dateTo !== undefined) {
      this.source.scan(q, (node) => visit(this.idOf(node.slug)));
      return;
    }
    const states = allowed(this.states, q.states, false);
    const tiers = allowed(this.tiers, q.tiers, true);
    const min = q.minConfidence;
    const [first, end] = this.idsOf(q.kind);
    for (let id = first; id < end; id++) {
      if (states !== undefined && states[this.stateOf[id]!] === 0) continue;
      if (tiers !== undefined && tiers[this.tierOf[id]!] === 0) continue;
      if (min !== undefined && this.confidence[id]! < min) continue;
      visit(id);
    }
  }

  /** Two passes over the edges: count each node's per kind and direction, then place them. */
  private buildAdjacency(outLists: Iterable<[string, readonly EdgeDoc[]]>): void {
    const kept: EdgeDoc[] = [];
    const ends: number[] = [];
    const built = new Map<EdgeKind, { out: Rows; in: Rows }>();
    const rows = (): Rows => ({ offsets: new Int32Array(this.nodeCount + 1), targets: EMPTY, edges: [] });
    const entries = this.source.entries;
    for (const [slug, list] of outLists) {
      const f = entries.get(slug)?.id ?? -1;
      for (const e of list) {
        const t = entries.get(e.to)?.id ?? -1;
        // An edge at a node not held (a dangling reference) leads nowhere a reader can go.
        if (f < 0 || t < 0) continue;
        let b = built.get(e.kind);
        if (b === undefined) built.set(e.kind, (b = { out: rows(), in: rows() }));
        b.out.offsets[f + 1]!++;
        b.in.offsets[t + 1]!++;
        kept.push(e);
        ends.push(f, t);
      }
    }
    const next = new Map<EdgeKind, { out: Int32Array; in: Int32Array }>();
    for (const [kind, b] of built) {
      for (const r of [b.out, b.in]) {
        for (let i = 1; i < r.offsets.length; i++) r.offsets[i]! += r.offsets[i - 1]!;
        r.targets = new Int32Array(r.offsets[this.nodeCount]!);
        r.edges = new Array<EdgeDoc>(r.targets.length);
      }
      next.set(kind, { out: b.out.offsets.slice(0, this.nodeCount), in: b.in.offsets.slice(0, this.nodeCount) });
      this.outs.set(kind, b.out);
      this.ins.set(kind, b.in);
    }
    for (let i = 0; i < kept.length; i++) {
      const e = kept[i]!;
      const f = ends[2 * i]!;
      const t = ends[2 * i + 1]!;
      const b = built.get(e.kind)!;
      const n = next.get(e.kind)!;
      const o = n.out[f]!++;
      b.out.targets[o] = t;
      b.out.edges[o] = e;
      const j = n.in[t]!++;
      b.in.targets[j] = f;
      b.in.edges[j] = e;
    }
  }
}

/** An Adjacency while it is built. */
interface Rows {
  offsets: Int32Array;
  targets: Int32Array;
  edges: EdgeDoc[];
}

const EMPTY = new Int32Array(0);

/**
 * Per code of `names`, 1 when a filter listing `wanted` lets it through (`''` always, for
 * tiers: national or untiered nodes are in every tier scope); undefined when it filters nothing.
 */
function allowed(
  names: readonly string[],
  wanted: readonly string[] | undefined,
  blankPasses: boolean,
): Uint8Array | undefined {
  if (wanted === undefined || wanted.length === 0) return undefined;
  const set = new Set(wanted);
  const out = new Uint8Array(names.length);
  names.forEach((name, i) => {
    if (set.has(name) || (blankPasses && name === '')) out[i] = 1;
  });
  return out;
}
