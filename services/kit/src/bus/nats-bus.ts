import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type Consumer,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { headers as natsHeaders, nanos, type MsgHdrs } from '@nats-io/nats-core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { UpstreamUnavailableError } from '../errors.js';
import type { CivicEvent } from './catalogue.js';
import { parseEvent } from './parse-event.js';
import { publishing } from './trace-events.js';
import { traceHeadersFrom, type TraceHeaders } from '../tracing/spans.js';
import { decodeEvent, encodeEvent } from './wire.js';
import { DEFAULT_RETRY_DELAY_MS, deliverUntilHandled, insideHandlerOf } from './delivery.js';
import {
  BusClosedError,
  publishEach,
  type EventBus,
  type EventHandler,
  type PublishOutcome,
  type SubscribeOptions,
  type Subscription,
} from './event-bus.js';

/** Options for {@link NatsEventBus.connect}. */
export interface NatsEventBusOptions {
  /** Server URL, e.g. `nats://127.0.0.1:4222`. */
  url: string;
  /** JetStream stream holding the events. Default `CIVIC`. */
  stream?: string;
  /** Subjects the stream captures when this call creates it. Default `['civic.>']`. */
  subjects?: string[];
  /** Age after which a newly created stream discards events, in ms. Default 7 days,
   *  comfortably past the webhook dispatcher's ~3 days of retries. */
  maxAgeMs?: number;
  /** Connection name shown by the server (`nats server report connections`). */
  name?: string;
  /** Give up connecting after this long, in ms. Default 2000. */
  connectTimeoutMs?: number;
  /** Receives connection status changes, handler failures and skipped messages. */
  logger?: Logger;
}

/** The NATS server could not be reached, or has JetStream disabled. */
export class NatsUnavailableError extends UpstreamUnavailableError {
  constructor(url: string, cause: unknown) {
    super(`NATS JetStream at ${url} is unavailable: ${messageOf(cause)}`, { cause });
  }
}

/** JetStream did not store a published event (no stream for its subject, timeout, …). */
export class NatsPublishError extends UpstreamUnavailableError {
  constructor(subject: string, cause: unknown) {
    super(`JetStream did not store the event on ${subject}: ${messageOf(cause)}`, { cause });
  }
}

/** JetStream's default duplicate window, set explicitly to match MemoryEventBus's default. */
const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The EventBus adapter on NATS JetStream: events are stored in one stream and
 * de-duplicated by the server on `Nats-Msg-Id` (the event id).
 *
 * Each subscription is an ordered consumer: ephemeral, server-side filtered, with no acks,
 * which the client recreates at the right sequence if it ever sees a gap. Ordered
 * consumers cannot nak, so a failing handler is retried here in the process; the
 * iterator is not advanced meanwhile, which keeps order. A server-side redelivery would
 * gain nothing: the consumer is ephemeral, so its position dies with the process anyway.
 */
export class NatsEventBus implements EventBus {
  private readonly subscriptions = new Set<NatsSubscription>();
  private closing: Promise<void> | undefined;
  /** False from a `disconnect` status until the next `reconnect`. */
  private up = true;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly logger: Logger | undefined,
  ) {}

  /**
   * Connects, and creates the stream if it is missing (an existing stream is left as it
   * is). Throws NatsUnavailableError when the server cannot be reached in time.
   */
  static async connect(options: NatsEventBusOptions): Promise<NatsEventBus> {
    const nc = await openConnection(options);
    try {
      const jsm = await jetstreamManager(nc);
      const stream = options.stream ?? 'CIVIC';
      await ensureStream(jsm, stream, options.subjects ?? ['civic.>'], options.maxAgeMs ?? WEEK_MS);
      const bus = new NatsEventBus(nc, jetstream(nc), jsm, stream, options.logger);
      bus.logStatus();
      return bus;
    } catch (err) {
      await nc.close();
      throw err instanceof JetStreamApiError ? err : new NatsUnavailableError(options.url, err);
    }
  }

  async publish(event: CivicEvent): Promise<void> {
    if (this.closing) throw new BusClosedError();
    const data = encodeEvent(parseEvent(event));
    await publishing('nats', event.subject, async (trace) => {
      try {
        // A duplicate id is acknowledged with `duplicate: true` and not stored again.
        await this.js.publish(event.subject, data, { msgID: event.id, headers: headersOf(trace) });
      } catch (err) {
        throw new NatsPublishError(event.subject, err);
      }
    });
  }

  publishAll(events: readonly CivicEvent[]): Promise<PublishOutcome> {
    return publishEach(this, events);
  }

  async subscribe(filter: string, handler: EventHandler, options: SubscribeOptions = {}): Promise<Subscription> {
    if (this.closing) throw new BusClosedError();
    const consumer =
      options.durable === undefined ? await this.openConsumer(filter) : await this.openDurable(filter, options.durable);
    const sub = new NatsSubscription(consumer, await consumer.consume(), handler, {
      retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
      logger: this.logger,
      onStop: (s) => this.subscriptions.delete(s),
      durable: options.durable !== undefined,
    });
    this.subscriptions.add(sub);
    if (this.closing) {
      // close() began while the consumer was being created and did not see it.
      await sub.unsubscribe();
      throw new BusClosedError();
    }
    return sub;
  }

  connected(): boolean {
    return this.up && this.closing === undefined && !this.nc.isClosed();
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * An ordered consumer starting just past the stream's last message. Not deliver policy
   * `new`: the ordered consumer remembers its position only from messages it has seen,
   * so one recreated before its first message would restart at sequence 1 and replay the
   * whole stream. An explicit start sequence gives it a true position from the start.
   */
  private async openConsumer(filter: string): Promise<Consumer> {
    const info = await this.jsm.streams.info(this.stream);
    return this.js.consumers.get(this.stream, {
      // A string, not an array: arrays become `filter_subjects`, which needs server 2.10.
      filter_subjects: filter,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: info.state.last_seq + 1,
    });
  }

  /**
   * A durable pull consumer: created on first use (delivering what is published from then
   * on), resumed afterwards from the first message it has not acknowledged.
   */
  private async openDurable(filter: string, name: string): Promise<Consumer> {
    try {
      await this.jsm.consumers.info(this.stream, name);
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
      await this.jsm.consumers.add(this.stream, {
        durable_name: name,
        filter_subject: filter,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
        ack_wait: nanos(60_000),
        // Unused for as long as the stream keeps events, it is of no use to anyone.
        inactive_threshold: nanos(WEEK_MS),
      });
    }
    return this.js.consumers.get(this.stream, name);
  }

  private async shutdown(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.unsubscribe()));
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  /** Tracks (and logs) disconnects and reconnects; ends by itself when the connection closes. */
  private logStatus(): void {
    const log = this.logger;
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === 'disconnect') this.up = false;
        if (s.type === 'reconnect') this.up = true;
        if (s.type === 'disconnect' || s.type === 'reconnect') log?.warn({ server: s.server }, `nats ${s.type}`);
      }
    })();
  }
}

/** Tuning for one {@link NatsSubscription}. */
interface NatsSubscriptionOptions {
  retryDelayMs: number;
  /** Messages are acknowledged once handled, and the consumer outlives the subscription. */
  durable: boolean;
  logger: Logger | undefined;
  onStop: (sub: NatsSubscription) => void;
}

/** One ordered consumer and the loop feeding its messages, one at a time, to a handler. */
class NatsSubscription implements Subscription {
  private readonly stopped = new AbortController();
  private readonly loop: Promise<void>;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly messages: ConsumerMessages,
    private readonly handler: EventHandler,
    private readonly options: NatsSubscriptionOptions,
  ) {
    this.loop = this.run();
  }

  unsubscribe(): Promise<void> {
    this.stopping ??= this.stop();
    // From inside its own handler the loop cannot finish until this call returns.
    return insideHandlerOf(this) ? Promise.resolve() : this.stopping;
  }

  private async stop(): Promise<void> {
    this.stopped.abort();
    this.options.onStop(this);
    // Wakes the loop if it is waiting for a message.
    void this.messages.close();
    await this.loop;
    // The server would expire an ordered consumer after minutes unattended; deleting it now
    // keeps a busy test or a restarting service from piling them up. Best effort: it may be
    // gone. A durable one stays, holding its place for the next subscription of its name.
    if (!this.options.durable) await this.consumer.delete().catch(() => false);
  }

  private async run(): Promise<void> {
    try {
      for await (const msg of this.messages) {
        if (this.stopped.signal.aborted) break;
        const event = decode(msg, this.options.logger);
        const handled = event === undefined ? true : await this.deliver(event, msg.headers);
        // Unhandled means the subscription stopped mid-way: unacknowledged, it comes again.
        if (this.options.durable && handled) msg.ack();
      }
    } catch (err) {
      if (!this.stopped.signal.aborted) this.options.logger?.error({ err }, 'nats consumer stopped');
    }
  }

  private deliver(event: CivicEvent, headers: MsgHdrs | undefined): Promise<boolean> {
    return deliverUntilHandled(event, this.handler, {
      system: 'nats',
      trace: headers === undefined ? undefined : traceHeadersFrom((name) => headers.get(name) || undefined),
      owner: this,
      retryDelayMs: this.options.retryDelayMs,
      signal: this.stopped.signal,
      logger: this.options.logger,
    });
  }
}

/** NATS message headers carrying a trace (W3C `traceparent`); undefined without one. */
function headersOf(trace: TraceHeaders | undefined): MsgHdrs | undefined {
  if (trace === undefined) return undefined;
  const h = natsHeaders();
  for (const [name, value] of Object.entries(trace)) h.set(name, value);
  return h;
}

/** The event in a message, or undefined (logged) when it is not a valid CivicEvent. */
function decode(msg: JsMsg, logger: Logger | undefined): CivicEvent | undefined {
  try {
    return decodeEvent(msg.data);
  } catch (err) {
    logger?.warn({ err, subject: msg.subject, seq: msg.seq }, 'skipping malformed event message');
    return undefined;
  }
}

/** Connects, reconnecting forever once up: a bus that gave up would strand its service. */
async function openConnection(options: NatsEventBusOptions): Promise<NatsConnection> {
  try {
    return await connect({
      servers: options.url,
      name: options.name,
      timeout: options.connectTimeoutMs ?? 2000,
      maxReconnectAttempts: -1,
    });
  } catch (err) {
    throw new NatsUnavailableError(options.url, err);
  }
}

/** Creates the stream unless it exists; losing a creation race to another process is fine. */
async function ensureStream(jsm: JetStreamManager, name: string, subjects: string[], maxAgeMs: number): Promise<void> {
  try {
    await jsm.streams.info(name);
    return;
  } catch (err) {
    if (!isStreamNotFound(err)) throw err;
  }
  try {
    await jsm.streams.add({
      name,
      subjects,
      max_age: nanos(maxAgeMs),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    });
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
  }
}

/** JetStream API error code for "stream name already in use" (not in JetStreamApiCodes). */
const STREAM_NAME_IN_USE = 10058;

function isStreamNotFound(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Resolves when a NATS server answers at `url` within `timeoutMs`; for tests deciding
 * whether they can run (see require-service.ts).
 */
export async function probeNats(url: string, timeoutMs = 2000): Promise<void> {
  const nc = await openConnectionOnce(url, timeoutMs);
  await nc.close();
}

async function openConnectionOnce(url: string, timeoutMs: number): Promise<NatsConnection> {
  try {
    return await connect({ servers: url, timeout: timeoutMs, reconnect: false });
  } catch (err) {
    throw new NatsUnavailableError(url, err);
  }
}
