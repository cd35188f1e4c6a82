import { InvalidParameterError } from '@civicgraph/kit';
import type { EdgeKind, NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import type { NodeQuery, NodeScan, Page } from '../graph-store.js';
import type { GraphReadView } from '../read-view.js';
import { sampledBytes } from './approx-bytes.js';
import { deepFreeze } from './deep-freeze.js';
import { EdgeIndex, type EdgeRef } from './edge-index.js';
import { dateKey, entryOf, KindIndex, type Entry } from './kind-index.js';
import { nodeFilter } from './node-filter.js';
import { plan, slugOfKey } from './query-plan.js';
import { ReadLayout } from './read-layout.js';

export const MAX_LIMIT = 1000;

/**
 * The in-memory graph every embedded read is served from: nodes by slug, edges by either
 * end, and per kind the indexes a NodeQuery is planned on (query-plan.ts). It holds no
 * revision checks and no durability: the stores that own it decide what goes in.
 *
 * Documents go in frozen and come out as the same frozen objects, so a read costs no
 * copy, and a caller that changes a document it was given gets a TypeError instead of
 * silently changing the store. Copy (`structuredClone`, store/clone-json.ts) before editing.
 */
export class GraphIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly kinds = new Map<NodeKind, KindIndex>();
  private readonly edgeIndex = new EdgeIndex();
  /** The read view of the index as it is, built on the first read after a change. */
  private layout: ReadLayout | undefined;

  get nodeCount(): number {
    return this.entries.size;
  }

  get edgeCount(): number {
    return this.edgeIndex.size;
  }

  get(slug: string): NodeDoc | undefined {
    return this.entries.get(slug)?.node;
  }

  /** Inserts or replaces a node (freezing it), re-indexing it under its current keys. */
  putNode(node: NodeDoc): void {
    this.layout = undefined;
    const old = this.entries.get(node.slug);
    if (old !== undefined) this.unindex(old);
    const entry = entryOf(deepFreeze(node));
    this.entries.set(node.slug, entry);
    this.kindIndex(node.kind).add(entry);
  }

  /** Removes a node and every edge touching it; returns the edges removed. */
  removeNode(slug: string): EdgeDoc[] {
    this.layout = undefined;
    const old = this.entries.get(slug);
    if (old !== undefined) {
      this.unindex(old);
      this.entries.delete(slug);
    }
    return this.edgeIndex.removeTouching(slug);
  }

  /** Creates or replaces an edge; the index keeps (and freezes) the object given. */
  link(edge: EdgeDoc): void {
    this.layout = undefined;
    this.edgeIndex.link(deepFreeze(this.shareSlugs(edge)));
  }

  /** Links an edge known to be new (see EdgeIndex.linkNew): for loading a store. */
  linkNew(edge: EdgeDoc): void {
    this.layout = undefined;
    this.edgeIndex.linkNew(deepFreeze(this.shareSlugs(edge)));
  }

  /**
   * The edge (a fresh object the index may keep) with its ends pointing at the node's
   * own slug strings where the node is held: a store decoded from disk would otherwise
   * hold a copy of each slug per edge, tens of megabytes at 400,000 edges.
   */
  private shareSlugs(edge: EdgeDoc): EdgeDoc {
    edge.from = this.entries.get(edge.from)?.node.slug ?? edge.from;
    edge.to = this.entries.get(edge.to)?.node.slug ?? edge.to;
    return edge;
  }

  unlink(ref: EdgeRef): boolean {
    this.layout = undefined;
    return this.edgeIndex.unlink(ref);
  }

  getEdge(ref: EdgeRef): EdgeDoc | undefined {
    return this.edgeIndex.get(ref);
  }

  edges(slug: string, direction: 'out' | 'in', kind?: EdgeKind): EdgeDoc[] {
    return this.edgeIndex.list(slug, direction, kind);
  }

  /**
   * The index laid out for one synchronous pass over much of it (store/read-view.ts). Built
   * whole on the first call after a change and kept until the next: a commit costs nothing
   * more, and the first read after it pays the build (see BENCHMARKS.md, bench:cypher).
   */
  readView(): GraphReadView {
    this.layout ??= new ReadLayout({
      kinds: this.kinds,
      entries: this.entries,
      outLists: this.edgeIndex.outLists(),
      scan: (q, visit) => this.scan(q, visit),
    });
    return this.layout;
  }

  /** Every edge with `slug` at either end. */
  touching(slug: string): EdgeDoc[] {
    return this.edgeIndex.touching(slug);
  }

  query(q: NodeQuery): Page {
    checkQuery(q);
    const ki = this.kinds.get(q.kind);
    const source = ki === undefined ? undefined : plan(ki, q);
    if (source === undefined) return { nodes: [], next: undefined };
    const order = q.order ?? 'slug';
    const filter = nodeFilter(q);
    let found: Entry[] = [];
    if (source.order === order) {
      for (const key of source.keys(q.after)) {
        const e = this.entries.get(slugOfKey(key, order));
        if (e !== undefined && filter(e) && found.push(e) > q.limit) break;
      }
    } else {
      found = this.collectSorted(source.keys(), source.order, order, filter, q.after);
    }
    const more = found.length > q.limit;
    const page = found.slice(0, q.limit);
    const last = page[page.length - 1];
    return { nodes: page.map((e) => e.node), next: more && last !== undefined ? keyOf(last, order) : undefined };
  }

  scan(q: NodeScan, visit: (node: NodeDoc) => void): void {
    const ki = this.kinds.get(q.kind);
    const source = ki === undefined ? undefined : plan(ki, q);
    if (source === undefined) return;
    const filter = nodeFilter(q);
    if (source.order !== 'slug') {
      for (const e of this.collectSorted(source.keys(), source.order, 'slug', filter)) visit(e.node);
      return;
    }
    for (const slug of source.keys()) {
      const e = this.entries.get(slug);
      if (e !== undefined && filter(e)) visit(e.node);
    }
  }

  /**
   * Approximate bytes held: the documents (approx-bytes.ts) plus the index structures at
   * a fixed cost per entry, posting, date key and edge. An estimate, not an accounting.
   */
  approxBytes(): number {
    let keys = 0;
    for (const ki of this.kinds.values())
      keys += ki.slugs.size + ki.postingRefs + (ki.hasDateOrder ? ki.slugs.size : 0);
    const docs = sampledBytes(this.nodeDocs(), this.nodeCount) + sampledBytes(this.edgeIndex.all(), this.edgeCount);
    return docs + this.nodeCount * BYTES_PER_ENTRY + keys * BYTES_PER_KEY + this.edgeCount * BYTES_PER_EDGE;
  }

  private *nodeDocs(): Generator<NodeDoc> {
    for (const e of this.entries.values()) yield e.node;
  }

  private collectSorted(
    keys: Iterable<string>,
    from: 'slug' | 'date',
    order: 'slug' | 'date',
    filter: (e: Entry) => boolean,
    after?: string,
  ): Entry[] {
    const hits: { key: string; e: Entry }[] = [];
    for (const key of keys) {
      const e = this.entries.get(slugOfKey(key, from));
      if (e === undefined || !filter(e)) continue;
      const k = keyOf(e, order);
      if (after === undefined || k > after) hits.push({ key: k, e });
    }
    hits.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return hits.map((h) => h.e);
  }

  private unindex(e: Entry): void {
    this.kinds.get(e.node.kind)?.remove(e);
  }

  private kindIndex(kind: NodeKind): KindIndex {
    let ki = this.kinds.get(kind);
    if (ki === undefined) this.kinds.set(kind, (ki = new KindIndex(this.entries)));
    return ki;
  }
}

/** Map entry, Entry object and IndexKeys objects per node. */
const BYTES_PER_ENTRY = 160;
/** One string reference in a sorted block, plus its share of the block. */
const BYTES_PER_KEY = 12;
/** Two list slots and the edge's object header. */
const BYTES_PER_EDGE = 64;

function keyOf(e: Entry, order: 'slug' | 'date'): string {
  return order === 'slug' ? e.node.slug : dateKey(e);
}

function checkQuery(q: NodeQuery): void {
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_LIMIT) {
    throw new InvalidParameterError('limit', `limit must be an integer from 1 to ${MAX_LIMIT}, not ${q.limit}`);
  }
  if (q.minConfidence !== undefined && !(q.minConfidence >= 0 && q.minConfidence <= 1)) {
    throw new InvalidParameterError('min_confidence', `min_confidence must be from 0 to 1, not ${q.minConfidence}`);
  }
}
