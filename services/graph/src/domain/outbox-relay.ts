import type { EventBus, Logger } from '@civicgraph/kit';
import type { GraphStore, OutboxEntry } from '../store/graph-store.js';

/** Options for {@link OutboxRelay}. */
export interface OutboxRelayOptions {
  store: GraphStore;
  bus: EventBus;
  log: Logger;
  /** Wait between polls of the outbox, in ms. Default 250. */
  pollMs?: number;
  /** Events read from the outbox per page (and acknowledged together). Default 100. */
  pageSize?: number;
}

/**
 * Moves committed events from the store's outbox to the bus (DESIGN, Events): a change
 * and its event are committed together, and this relay publishes the event afterwards,
 * in commit order, acknowledging it in the store only once the bus has accepted it.
 *
 * A crash between publish and acknowledgement publishes the event again after restart;
 * the bus drops the repeat because the event id is the `Nats-Msg-Id` (JetStream's
 * duplicate window, two minutes). Acknowledging a page at a time rather than each event
 * keeps that repeat small (at most one page) without a store write per event.
 */
export class OutboxRelay {
  private readonly store: GraphStore;
  private readonly bus: EventBus;
  private readonly log: Logger;
  private readonly pollMs: number;
  private readonly pageSize: number;
  /** The current or last drain: drains run one after another, never two at once. */
  private draining: Promise<number> = Promise.resolve(0);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(options: OutboxRelayOptions) {
    this.store = options.store;
    this.bus = options.bus;
    this.log = options.log;
    this.pollMs = options.pollMs ?? 250;
    this.pageSize = options.pageSize ?? 100;
  }

  /** Starts polling: a drain now, then one `pollMs` after each drain ends. Calling it again does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.poll();
  }

  /** Stops polling and waits for a drain in progress to finish. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.draining.catch(() => 0);
  }

  /**
   * Publishes every pending event in commit order and returns how many it published.
   * Stops at the first event the bus refuses (logged; the next poll retries from there),
   * so an event is never published ahead of an earlier one. Rejects only when the store
   * itself fails. Starts after any drain already running, so it sees every event
   * committed before the call.
   */
  drain(): Promise<number> {
    const next = this.draining.catch(() => 0).then(() => this.drainNow());
    this.draining = next;
    return next;
  }

  private poll(): void {
    void this.drain()
      .catch((err: unknown) =>
        this.log.error({ err }, 'outbox relay could not read or acknowledge the outbox; retrying'),
      )
      .finally(() => {
        if (!this.running) return;
        this.timer = setTimeout(() => this.poll(), this.pollMs);
        // The relay alone must not keep a process alive; its owner stops it on shutdown.
        this.timer.unref();
      });
  }

  private async drainNow(): Promise<number> {
    let published = 0;
    let lastSeq = -Infinity;
    for (;;) {
      const page = (await this.store.pendingEvents(this.pageSize)).sort((a, b) => a.seq - b.seq);
      if (page.length === 0) return published;
      if (page[0]!.seq <= lastSeq) {
        // The store handed back events it was told were published: stop rather than spin.
        this.log.error(
          { seq: page[0]!.seq, lastSeq },
          'outbox returned acknowledged events again; stopping this drain',
        );
        return published;
      }
      const sent = await this.publishInOrder(page);
      if (sent.length > 0) await this.store.ackEvents(sent.map((e) => e.event.id));
      published += sent.length;
      if (sent.length < page.length) return published;
      lastSeq = page[page.length - 1]!.seq;
    }
  }

  /** Publishes entries in order until one fails; returns those the bus accepted. */
  private async publishInOrder(page: readonly OutboxEntry[]): Promise<readonly OutboxEntry[]> {
    // Each event leaves numbered with its outbox seq: its position in the change feed, which
    // export manifests name (a client joins a snapshot by applying the events above it).
    const { published, error } = await this.bus.publishAll(page.map((e) => ({ ...e.event, seq: String(e.seq) })));
    if (error !== undefined) {
      const entry = page[published]!;
      this.log.warn(
        { err: error, eventId: entry.event.id, subject: entry.event.subject, seq: entry.seq },
        'outbox publish failed; retrying on the next poll',
      );
    }
    return page.slice(0, published);
  }
}
