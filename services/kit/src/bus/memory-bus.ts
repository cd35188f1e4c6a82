import type { Logger } from 'pino';
import type { CivicEvent } from './catalogue.js';
import { parseEvent } from './parse-event.js';
import { publishing } from './trace-events.js';
import type { TraceHeaders } from '../tracing/spans.js';
import { DEFAULT_RETRY_DELAY_MS, deliverUntilHandled, insideHandlerOf } from './delivery.js';
import {
  BusClosedError,
  publishEach,
  subjectMatches,
  type EventBus,
  type EventHandler,
  type PublishOutcome,
  type SubscribeOptions,
  type Subscription,
} from './event-bus.js';

/** Options for {@link MemoryEventBus}. */
export interface MemoryEventBusOptions {
  /** How long a published event id is remembered for de-duplication, in ms. Default
   *  120000, JetStream's default duplicate window, so both adapters forget alike. */
  dedupeWindowMs?: number;
  /** Most ids remembered at once; the oldest are forgotten first. Default 10000. */
  dedupeMaxIds?: number;
  /** Receives a warning each time a handler throws. */
  logger?: Logger;
  /** Clock for the de-duplication window, in ms; tests may inject one. Default Date.now. */
  now?: () => number;
}

/**
 * The in-process EventBus adapter, used when everything runs in one process
 * (`civicgraph up`). Events live only in memory: nothing survives a restart.
 */
export class MemoryEventBus implements EventBus {
  private readonly subscriptions = new Set<MemorySubscription>();
  /** Durable subscriptions by name: what arrived while none was open waits in `backlog`. */
  private readonly durables = new Map<string, { filter: string; backlog: Queued[]; open: boolean }>();
  private readonly seen: RecentIds;
  private readonly logger: Logger | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: MemoryEventBusOptions = {}) {
    this.logger = options.logger;
    this.seen = new RecentIds(
      options.dedupeWindowMs ?? 120_000,
      options.dedupeMaxIds ?? 10_000,
      options.now ?? Date.now,
    );
  }

  async publish(published: CivicEvent): Promise<void> {
    if (this.closing) throw new BusClosedError();
    const event = parseEvent(published);
    if (!this.seen.add(event.id)) return;
    await publishing('memory', event.subject, async (trace) => this.offer(event, trace));
  }

  private offer(event: CivicEvent, trace: TraceHeaders | undefined): void {
    for (const d of this.durables.values()) {
      if (!d.open && subjectMatches(d.filter, event.subject)) d.backlog.push({ event: structuredClone(event), trace });
    }
    for (const sub of this.subscriptions) {
      // A copy each, as if it had crossed the wire: one handler mutating its event
      // must not change what the publisher or another subscriber sees.
      if (subjectMatches(sub.filter, event.subject)) sub.offer({ event: structuredClone(event), trace });
    }
  }

  publishAll(events: readonly CivicEvent[]): Promise<PublishOutcome> {
    return publishEach(this, events);
  }

  async subscribe(filter: string, handler: EventHandler, options: SubscribeOptions = {}): Promise<Subscription> {
    if (this.closing) throw new BusClosedError();
    const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    const durable =
      options.durable === undefined
        ? undefined
        : (this.durables.get(options.durable) ?? { filter, backlog: [], open: false });
    if (options.durable !== undefined) this.durables.set(options.durable, durable!);
    const sub = new MemorySubscription(filter, handler, retryDelayMs, this.logger, (s, unhandled) => {
      this.subscriptions.delete(s);
      // A durable subscription's unhandled events wait for the next one of its name.
      if (durable !== undefined) {
        durable.backlog.unshift(...unhandled);
        durable.open = false;
      }
    });
    this.subscriptions.add(sub);
    if (durable !== undefined) {
      durable.open = true;
      for (const e of durable.backlog.splice(0)) sub.offer(e);
    }
    return sub;
  }

  connected(): boolean {
    return this.closing === undefined;
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([...this.subscriptions].map((s) => s.unsubscribe())).then(() => undefined);
    return this.closing;
  }
}

/** An event waiting for a subscriber, with the trace headers it was published with. */
interface Queued {
  event: CivicEvent;
  trace: TraceHeaders | undefined;
}

/** One subscriber's FIFO queue, drained by at most one running pump. */
class MemorySubscription implements Subscription {
  private readonly queue: Queued[] = [];
  private readonly stopped = new AbortController();
  private pumping: Promise<void> | undefined;

  constructor(
    readonly filter: string,
    private readonly handler: EventHandler,
    private readonly retryDelayMs: number,
    private readonly logger: Logger | undefined,
    private readonly onStop: (sub: MemorySubscription, unhandled: Queued[]) => void,
  ) {}

  /** Queues an event; starts the pump on a later tick, never inside publish. */
  offer(queued: Queued): void {
    if (this.stopped.signal.aborted) return;
    this.queue.push(queued);
    this.pumping ??= Promise.resolve().then(() => this.pump());
  }

  async unsubscribe(): Promise<void> {
    if (this.stopped.signal.aborted) return;
    this.stopped.abort();
    this.onStop(this, this.queue.splice(0));
    if (!insideHandlerOf(this)) await this.pumping;
  }

  /** Delivers the queue head until it is handled, then the next, until empty or stopped. */
  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.stopped.signal.aborted) {
        const { event, trace } = this.queue[0]!;
        const handled = await deliverUntilHandled(event, this.handler, {
          system: 'memory',
          trace,
          owner: this,
          retryDelayMs: this.retryDelayMs,
          signal: this.stopped.signal,
          logger: this.logger,
        });
        if (handled) this.queue.shift();
      }
    } finally {
      this.pumping = undefined;
    }
  }
}

/**
 * Event ids published recently, oldest first (a Map keeps insertion order), bounded both
 * by age and by count so a burst cannot grow it without limit.
 */
class RecentIds {
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxIds: number,
    private readonly now: () => number,
  ) {}

  /** Records `id`; false when it was already recorded within the window. */
  add(id: string): boolean {
    const now = this.now();
    this.forgetOld(now);
    if (this.ids.has(id)) return false;
    this.ids.set(id, now);
    if (this.ids.size > this.maxIds) this.ids.delete(this.ids.keys().next().value!);
    return true;
  }

  private forgetOld(now: number): void {
    for (const [id, at] of this.ids) {
      if (now - at < this.windowMs) return;
      this.ids.delete(id);
    }
  }
}
