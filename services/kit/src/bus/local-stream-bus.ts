import { open, type Database, type RootDatabase } from 'lmdb';
import type { Logger } from 'pino';
import type { CivicEvent } from './catalogue.js';
import { parseEvent } from './parse-event.js';
import { publishing } from './trace-events.js';
import type { TraceHeaders } from '../tracing/spans.js';
import { decodeEvent, encodeEvent } from './wire.js';
import { DEFAULT_RETRY_DELAY_MS, deliverUntilHandled, insideHandlerOf } from './delivery.js';
import {
  BusClosedError,
  subjectMatches,
  type EventBus,
  type EventHandler,
  type PublishOutcome,
  type SubscribeOptions,
  type Subscription,
} from './event-bus.js';

/** Options for {@link LocalStreamBus.open}. */
export interface LocalStreamBusOptions {
  /** The LMDB folder holding the stream, e.g. `$CIVIC_DATA_DIR/bus`. */
  path: string;
  /** How long a published event id is remembered for de-duplication, in ms. Default
   *  120000, JetStream's duplicate window, so every adapter forgets alike. */
  dedupeWindowMs?: number;
  /** Age after which an event is discarded even if a durable consumer has not read it, in
   *  ms. Default 7 days, as the JetStream stream (past the dispatcher's ~3 days of retries). */
  maxAgeMs?: number;
  /** How often read and expired events are discarded, in ms. Default 30000. */
  pruneEveryMs?: number;
  /** Receives a warning each time a handler throws. */
  logger?: Logger;
  /** Clock, in ms; tests may inject one. Default Date.now. */
  now?: () => number;
}

/**
 * A stored event: its subject (read by every subscription's filter, so kept beside the
 * protobuf to spare decoding events a filter passes over) and its encoding (wire.ts).
 * Releases before the typed envelope stored the event object itself; those are still read.
 */
type Stored = EncodedStored | LegacyStored;

interface EncodedStored {
  /** When it was published, in ms since the epoch (for maxAgeMs). */
  at: number;
  subject: string;
  wire: Uint8Array;
  /** The trace it was published in (tracing on), as a NATS message's headers would carry it. */
  trace?: TraceHeaders;
}

interface LegacyStored {
  at: number;
  event: { subject: string };
}

/** An event ready to store: validated and encoded before the write transaction opens. */
interface Encoded {
  id: string;
  subject: string;
  wire: Uint8Array;
}

interface DurableState {
  filter: string;
  /** The sequence of the last event this consumer has handled (or skipped as unmatched). */
  acked: number;
}

/**
 * The EventBus adapter for one process without NATS (`civicgraph up`): a stream kept on
 * disk in LMDB, so publish resolves only once the event is stored, and a durable consumer
 * (the webhook dispatcher) resumes after a crash from the first event it had not handled.
 * The graph service's outbox is acknowledged on that publish, so an event committed with
 * its change is never lost between the two, as on JetStream.
 *
 * Every subscription reads the stream from a position: a durable one's is stored (created
 * at the stream's end, as a JetStream `DeliverPolicy.New` consumer), any other's lives in
 * memory from the end of the stream when it subscribed. Events every position has passed,
 * and events older than maxAgeMs, are discarded.
 */
export class LocalStreamBus implements EventBus {
  private readonly subscriptions = new Set<StreamSubscription>();
  private readonly pruner: NodeJS.Timeout;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly root: RootDatabase,
    private readonly events: Database<Stored, number>,
    private readonly ids: Database<number, string>,
    private readonly durables: Database<DurableState, string>,
    /** `last`: the last sequence given out, kept apart from the events so pruning never lets one be reused. */
    private readonly meta: Database<number, string>,
    private readonly options: Required<Omit<LocalStreamBusOptions, 'logger' | 'path'>> & { logger: Logger | undefined },
  ) {
    this.pruner = setInterval(
      () => void this.prune().catch((err) => this.options.logger?.warn({ err }, 'event stream prune failed')),
      options.pruneEveryMs,
    );
    this.pruner.unref();
  }

  static async open(options: LocalStreamBusOptions): Promise<LocalStreamBus> {
    const root = open({ path: options.path, overlappingSync: false });
    const bus = new LocalStreamBus(
      root,
      root.openDB<Stored, number>('events', { encoding: 'msgpack' }),
      root.openDB<number, string>('ids', { encoding: 'msgpack' }),
      root.openDB<DurableState, string>('durables', { encoding: 'msgpack' }),
      root.openDB<number, string>('meta', { encoding: 'msgpack' }),
      {
        dedupeWindowMs: options.dedupeWindowMs ?? 120_000,
        maxAgeMs: options.maxAgeMs ?? 7 * 24 * 60 * 60 * 1000,
        pruneEveryMs: options.pruneEveryMs ?? 30_000,
        now: options.now ?? Date.now,
        logger: options.logger,
      },
    );
    await bus.prune();
    return bus;
  }

  async publish(event: CivicEvent): Promise<void> {
    const outcome = await this.publishAll([event]);
    if (outcome.error !== undefined) throw outcome.error;
  }

  /** The events a relay hands over in one synchronous commit: stored together, in order, or not at all. */
  publishAll(events: readonly CivicEvent[]): Promise<PublishOutcome> {
    if (this.closing) return Promise.resolve({ published: 0, error: new BusClosedError() });
    const subject = events.length === 1 ? events[0]!.subject : `${events.length} events`;
    return publishing('local-stream', subject, async (trace) => this.store(events, trace));
  }

  private store(events: readonly CivicEvent[], trace: TraceHeaders | undefined): PublishOutcome {
    const valid: Encoded[] = [];
    let error: unknown;
    for (const event of events) {
      try {
        valid.push({ id: event.id, subject: event.subject, wire: encodeEvent(parseEvent(event)) });
      } catch (err) {
        error = err;
        break;
      }
    }
    const now = this.options.now();
    let stored = 0;
    try {
      // A synchronous commit: an asynchronous one costs a round trip to LMDB's write thread.
      this.root.transactionSync(() => {
        for (const event of valid) if (this.append(event, now, trace)) stored++;
      });
    } catch (err) {
      // Nothing of the transaction was stored (a full disk, say): none was accepted.
      return { published: 0, error: err };
    }
    if (stored > 0) for (const sub of this.subscriptions) sub.wake();
    return error === undefined ? { published: valid.length } : { published: valid.length, error };
  }

  /** Inside a transaction: stores the event unless its id was published within the de-duplication window. */
  private append(event: Encoded, now: number, trace: TraceHeaders | undefined): boolean {
    const seen = this.ids.get(event.id);
    if (seen !== undefined && now - seen < this.options.dedupeWindowMs) return false;
    this.ids.put(event.id, now);
    const seq = this.lastSeq() + 1;
    this.meta.put('last', seq);
    this.events.put(seq, { at: now, subject: event.subject, wire: event.wire, ...(trace && { trace }) });
    return true;
  }

  async subscribe(filter: string, handler: EventHandler, options: SubscribeOptions = {}): Promise<Subscription> {
    if (this.closing) throw new BusClosedError();
    let from = this.lastSeq();
    let keep: ((acked: number) => unknown) | undefined;
    const name = options.durable;
    if (name !== undefined) {
      const known = this.durables.get(name);
      // Stored at once, so a prune before the subscription is registered keeps what follows it.
      if (known === undefined) this.durables.putSync(name, { filter, acked: from });
      else from = known.acked;
      // Committed before the next event is read (about 0.3 ms an event here), so after a
      // crash only the event being handled comes again, and a new subscription of the name
      // starts exactly where the last one stopped.
      keep = (acked) => this.durables.putSync(name, { filter, acked });
    }
    const sub = new StreamSubscription(
      this.events,
      filter,
      handler,
      from,
      keep,
      options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
      this.options.logger,
      (s) => this.subscriptions.delete(s),
    );
    this.subscriptions.add(sub);
    sub.start();
    return sub;
  }

  connected(): boolean {
    return this.closing === undefined;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.pruner);
      await Promise.all([...this.subscriptions].map((s) => s.unsubscribe()));
      await this.root.close();
    })();
    return this.closing;
  }

  /** Events stored now (tests and the prune). */
  storedCount(): number {
    return this.events.getCount();
  }

  /**
   * Discards events every durable consumer and open subscription has passed, events older
   * than maxAgeMs, and remembered ids older than the de-duplication window.
   */
  async prune(): Promise<void> {
    const now = this.options.now();
    const positions = [...this.subscriptions].map((s) => s.position);
    for (const { value } of this.durables.getRange()) positions.push(value.acked);
    const passed = positions.length === 0 ? this.lastSeq() : Math.min(...positions);
    await this.root.transaction(() => {
      for (const { key, value } of this.events.getRange()) {
        if (key > passed && now - value.at < this.options.maxAgeMs) break;
        this.events.remove(key);
      }
      for (const { key, value } of this.ids.getRange()) {
        if (now - value >= this.options.dedupeWindowMs) this.ids.remove(key);
      }
    });
  }

  private lastSeq(): number {
    return this.meta.get('last') ?? 0;
  }
}

/** One subscription: reads the stream after its position, one event at a time, in order. */
class StreamSubscription implements Subscription {
  private readonly stopped = new AbortController();
  private pumping: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly events: Database<Stored, number>,
    private readonly filter: string,
    private readonly handler: EventHandler,
    /** The sequence of the last event handled or passed over. */
    public position: number,
    /** Stores the position of a durable subscription. */
    private readonly keep: ((acked: number) => unknown) | undefined,
    private readonly retryDelayMs: number,
    private readonly logger: Logger | undefined,
    private readonly onStop: (sub: StreamSubscription) => void,
  ) {}

  start(): void {
    this.pumping = this.pump();
  }

  /** A new event was stored: a pump waiting for one reads on. */
  wake(): void {
    this.wakeUp?.();
  }

  async unsubscribe(): Promise<void> {
    if (this.stopped.signal.aborted) return;
    this.stopped.abort();
    this.wake();
    this.onStop(this);
    if (!insideHandlerOf(this)) await this.pumping;
  }

  private async pump(): Promise<void> {
    // Starts on a later tick, never inside subscribe or publish.
    await Promise.resolve();
    let skipped = 0;
    while (!this.stopped.signal.aborted) {
      try {
        // Armed before reading, so an event stored between the read and the wait still wakes it.
        const woken = new Promise<void>((resolve) => (this.wakeUp = resolve));
        const next = this.next();
        if (next === undefined) {
          await woken;
          continue;
        }
        if (next.event !== undefined) {
          const handled = await deliverUntilHandled(next.event, this.handler, {
            system: 'local-stream',
            trace: next.trace,
            owner: this,
            retryDelayMs: this.retryDelayMs,
            signal: this.stopped.signal,
            logger: this.logger,
          });
          if (!handled) return;
        } else if (++skipped % 1_000 === 0) {
          // A long run of events the filter passes over must not hold the event loop.
          await new Promise((resolve) => setImmediate(resolve));
        }
        this.position = next.seq;
        this.keepPosition(next.seq);
      } catch (err) {
        // The stream itself failed (a read, say): try again after the retry delay.
        this.logger?.error({ err }, 'event stream read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs));
      }
    }
  }

  /** Stores a durable position; after the bus closed (a handler may close it) there is nothing to store it in. */
  private keepPosition(seq: number): void {
    try {
      this.keep?.(seq);
    } catch (err) {
      if (!this.stopped.signal.aborted) throw err;
    }
  }

  /** The next stored event after the position: its sequence, and the event when the filter matches it. */
  private next(): { seq: number; event?: CivicEvent; trace?: TraceHeaders } | undefined {
    for (const { key, value } of this.events.getRange({ start: this.position + 1, limit: 1 })) {
      const subject = 'wire' in value ? value.subject : value.event.subject;
      if (!subjectMatches(this.filter, subject)) return { seq: key };
      return {
        seq: key,
        event: this.decode(key, value),
        ...('wire' in value && value.trace && { trace: value.trace }),
      };
    }
    return undefined;
  }

  /** The stored event, or undefined (logged, then passed over) when it is not a valid one: retrying would not mend it. */
  private decode(seq: number, value: Stored): CivicEvent | undefined {
    try {
      return 'wire' in value ? decodeEvent(value.wire) : parseEvent(value.event);
    } catch (err) {
      this.logger?.warn({ err, seq }, 'skipping malformed stored event');
      return undefined;
    }
  }
}
