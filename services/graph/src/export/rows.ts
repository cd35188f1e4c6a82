import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { nodeVisible, storeScope, visibleNode, type NodeView } from '@civicgraph/kit';
import { nodeView } from '../domain/events.js';
import { NODE_KINDS } from '../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import type { ExportSpec } from './spec.js';

/** An exported edge: its identity and data. */
export interface EdgeRow {
  kind: string;
  from: string;
  to: string;
  key: string;
  data: EdgeDoc['data'];
}

/**
 * Which rows an export holds and how each looks, decided by the one policy: a node exists
 * for the export when it exists for the key (its states and tiers, `nodeVisible`) and lies
 * in the states the request narrowed to (national nodes always do); an edge when both of
 * its ends are in the export (their kinds asked, and in scope). A node row is the node as the key's events show it (`visibleNode`: no
 * contact fields without `contact`), so a row equals the object of the event that made it.
 */
export class ExportRows {
  private readonly unrestricted: boolean;
  private readonly kinds: ReadonlySet<string>;
  /** Every kind asked: any edge's ends are of kinds in the export. */
  private readonly everyKind: boolean;
  /** Ends already looked up, for edges (a node has many). */
  private readonly seen = new Map<string, boolean>();

  constructor(
    private readonly principal: Principal,
    private readonly spec: Pick<ExportSpec, 'states' | 'kinds'>,
  ) {
    this.kinds = new Set(spec.kinds);
    this.everyKind = NODE_KINDS.every((k) => this.kinds.has(k));
    const scope = storeScope(principal);
    this.unrestricted = scope.states === undefined && scope.tiers === undefined && spec.states.length === 0;
  }

  /** Whether every node of the asked kinds is in this export (nothing narrows them). */
  get everyNode(): boolean {
    return this.unrestricted;
  }

  /** Whether every edge of the snapshot is in this export (every kind asked, nothing narrowed). */
  get everyEdge(): boolean {
    return this.unrestricted && this.everyKind;
  }

  /** Whether the node exists for this export. */
  includes(node: Pick<NodeDoc, 'state' | 'tier'>): boolean {
    if (this.unrestricted) return true;
    const states = this.spec.states;
    return (
      nodeVisible(this.principal, node) && (states.length === 0 || node.state === '' || states.includes(node.state))
    );
  }

  /** The row of a node that exists for this export. */
  nodeRow(node: NodeDoc): NodeView {
    return visibleNode(this.principal, nodeView(node));
  }

  /**
   * The row of an edge, or undefined when one of its ends is not in this export (its kind, or
   * its scope). A promise only when an end's scope must be read: an unrestricted export
   * decides every edge without waiting (715,000 awaits were a whole-graph export's cost).
   */
  edgeRow(edge: EdgeDoc, snapshot: GraphSnapshot): EdgeRow | undefined | Promise<EdgeRow | undefined> {
    if (!this.everyKind && (!this.kinds.has(kindOf(edge.from)) || !this.kinds.has(kindOf(edge.to)))) return undefined;
    if (!this.unrestricted) return this.scopedEdgeRow(edge, snapshot);
    return { kind: edge.kind, from: edge.from, to: edge.to, key: edge.key, data: edge.data };
  }

  private async scopedEdgeRow(edge: EdgeDoc, snapshot: GraphSnapshot): Promise<EdgeRow | undefined> {
    if (!((await this.endIncluded(edge.from, snapshot)) && (await this.endIncluded(edge.to, snapshot))))
      return undefined;
    return { kind: edge.kind, from: edge.from, to: edge.to, key: edge.key, data: edge.data };
  }

  private async endIncluded(slug: string, snapshot: GraphSnapshot): Promise<boolean> {
    let included = this.seen.get(slug);
    if (included === undefined) {
      const node = await snapshot.getNode(slug);
      included = node !== undefined && this.includes(node);
      // Bounded: a cache of the ends of the edges read so far, cleared when it grows large.
      if (this.seen.size > 200_000) this.seen.clear();
      this.seen.set(slug, included);
    }
    return included;
  }
}

/** A slug's kind: the word before its colon (`candidacy:…`). */
function kindOf(slug: string): string {
  return slug.slice(0, slug.indexOf(':'));
}
