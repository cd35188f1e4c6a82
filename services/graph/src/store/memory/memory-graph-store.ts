import type { EdgeKind, NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { checkRevs, prepareChangeSet, validateChangeSet } from '../change-set.js';
import type { ChangeSet, GraphStore, NodeQuery, OutboxEntry, Page, StoreStats } from '../graph-store.js';
import type { GraphReadView } from '../read-view.js';
import { applyToIndex } from './apply-changes.js';
import { GraphIndex } from './graph-index.js';
import { MemoryOutbox } from './memory-outbox.js';

/**
 * A GraphStore held only in memory: for unit tests and throwaway runs. Nothing survives
 * the process. Commits are atomic because they are synchronous: every expectRev is checked
 * before anything is applied, and nothing else runs in between.
 *
 * Documents read from it are frozen (see GraphIndex): copy them before editing.
 */
export class MemoryGraphStore implements GraphStore {
  private readonly index = new GraphIndex();
  private readonly outbox = new MemoryOutbox();
  private closed = false;

  async commit(changes: ChangeSet): Promise<void> {
    this.assertOpen();
    validateChangeSet(changes);
    checkRevs(changes, (slug) => this.index.get(slug)?.rev ?? 0);
    const prepared = prepareChangeSet(changes);
    applyToIndex(this.index, prepared);
    this.outbox.append(prepared.events);
  }

  async getNode<K extends NodeKind = NodeKind>(slug: string): Promise<NodeDoc<K> | undefined> {
    this.assertOpen();
    return this.index.get(slug) as NodeDoc<K> | undefined;
  }

  async getNodes(slugs: readonly string[]): Promise<NodeDoc[]> {
    this.assertOpen();
    return slugs.flatMap((s) => this.index.get(s) ?? []);
  }

  async edges(slug: string, direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[]> {
    this.assertOpen();
    return this.index.edges(slug, direction, kind);
  }

  async edgesOf(slugs: readonly string[], direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[][]> {
    this.assertOpen();
    return slugs.map((slug) => this.index.edges(slug, direction, kind));
  }

  async query(q: NodeQuery): Promise<Page> {
    this.assertOpen();
    return this.index.query(q);
  }

  readView(): GraphReadView {
    this.assertOpen();
    return this.index.readView();
  }

  async pendingEvents(limit: number): Promise<OutboxEntry[]> {
    this.assertOpen();
    return this.outbox.list(limit);
  }

  async ackEvents(ids: readonly string[]): Promise<void> {
    this.assertOpen();
    this.outbox.ack(ids);
  }

  async stats(): Promise<StoreStats> {
    this.assertOpen();
    return {
      nodes: this.index.nodeCount,
      edges: this.index.edgeCount,
      pendingEvents: this.outbox.size,
      indexBytes: this.index.approxBytes(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the MemoryGraphStore is closed');
  }
}
