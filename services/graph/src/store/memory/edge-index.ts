import type { EdgeKind } from '../../model/kinds.js';
import { edgeId, type EdgeDoc } from '../../model/nodes.js';

export type EdgeRef = Pick<EdgeDoc, 'kind' | 'from' | 'to' | 'key'>;

/** Lists longer than this get a position map, so removing from a party's 100,000 in-edges is O(1). */
const MAP_AT = 32;

/**
 * The edges at one end of many nodes. Most nodes have a handful of edges, held in a plain
 * array (a Map per node would cost several times the memory with 200,000 candidacies);
 * a long list also gets an id → position map. Order within a list is not kept.
 */
class EdgeList {
  readonly items: EdgeDoc[] = [];
  private pos: Map<string, number> | undefined;

  indexOf(ref: EdgeRef): number {
    if (this.pos !== undefined) return this.pos.get(edgeId(ref)) ?? -1;
    return this.items.findIndex(
      (e) => e.kind === ref.kind && e.from === ref.from && e.to === ref.to && e.key === ref.key,
    );
  }

  /** Adds an edge known not to be held yet (loading from a store's unique keys): no search. */
  add(edge: EdgeDoc): void {
    this.items.push(edge);
    this.pos?.set(edgeId(edge), this.items.length - 1);
    if (this.pos === undefined && this.items.length > MAP_AT)
      this.pos = new Map(this.items.map((e, j) => [edgeId(e), j]));
  }

  /** Adds or replaces; true when it was new. */
  set(edge: EdgeDoc): boolean {
    const i = this.indexOf(edge);
    if (i >= 0) {
      this.items[i] = edge;
      return false;
    }
    this.add(edge);
    return true;
  }

  /** Removes by swapping the last item into the hole. */
  delete(ref: EdgeRef): EdgeDoc | undefined {
    const i = this.indexOf(ref);
    if (i < 0) return undefined;
    const gone = this.items[i] as EdgeDoc;
    const last = this.items.pop() as EdgeDoc;
    if (i < this.items.length) this.items[i] = last;
    if (this.pos !== undefined) {
      this.pos.delete(edgeId(gone));
      if (i < this.items.length) this.pos.set(edgeId(last), i);
    }
    return gone;
  }
}

/** Edges by their `from` node and by their `to` node. */
export class EdgeIndex {
  private readonly outs = new Map<string, EdgeList>();
  private readonly ins = new Map<string, EdgeList>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Creates or replaces the edge identified by (kind, from, to, key). */
  link(edge: EdgeDoc): void {
    listOf(this.ins, edge.to).set(edge);
    if (listOf(this.outs, edge.from).set(edge)) this.count++;
  }

  /**
   * Adds an edge the caller knows is not held yet, skipping the identity search: for
   * loading a whole store, whose keys are unique. A duplicate would be listed twice.
   */
  linkNew(edge: EdgeDoc): void {
    listOf(this.ins, edge.to).add(edge);
    listOf(this.outs, edge.from).add(edge);
    this.count++;
  }

  /** Deletes the edge; false when it did not exist. */
  unlink(ref: EdgeRef): boolean {
    if (this.outs.get(ref.from)?.delete(ref) === undefined) return false;
    this.ins.get(ref.to)?.delete(ref);
    dropEmpty(this.outs, ref.from);
    dropEmpty(this.ins, ref.to);
    this.count--;
    return true;
  }

  get(ref: EdgeRef): EdgeDoc | undefined {
    const list = this.outs.get(ref.from);
    const i = list?.indexOf(ref) ?? -1;
    return i < 0 ? undefined : list?.items[i];
  }

  list(slug: string, direction: 'out' | 'in', kind?: EdgeKind): EdgeDoc[] {
    const items = (direction === 'out' ? this.outs : this.ins).get(slug)?.items ?? [];
    return kind === undefined ? items.slice() : items.filter((e) => e.kind === kind);
  }

  /** Every edge with `slug` at either end, each once (a self-loop is at both). */
  touching(slug: string): EdgeDoc[] {
    const out = this.list(slug, 'out');
    return out.concat(this.list(slug, 'in').filter((e) => e.from !== slug));
  }

  /** Every node with edges leaving it, and those edges (the index's own list: read, do not change). */
  *outLists(): Generator<[string, readonly EdgeDoc[]]> {
    for (const [slug, list] of this.outs) yield [slug, list.items];
  }

  *all(): Generator<EdgeDoc> {
    for (const list of this.outs.values()) yield* list.items;
  }

  /** Deletes every edge touching `slug`; returns them. */
  removeTouching(slug: string): EdgeDoc[] {
    const gone = this.touching(slug);
    for (const e of gone) this.unlink(e);
    return gone;
  }
}

function listOf(m: Map<string, EdgeList>, slug: string): EdgeList {
  let list = m.get(slug);
  if (list === undefined) m.set(slug, (list = new EdgeList()));
  return list;
}

function dropEmpty(m: Map<string, EdgeList>, slug: string): void {
  if (m.get(slug)?.items.length === 0) m.delete(slug);
}
