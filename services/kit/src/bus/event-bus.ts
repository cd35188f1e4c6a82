import { UpstreamUnavailableError } from '../errors.js';
import type { CivicEvent } from './catalogue.js';

/**
 * The EventBus port: data-change events on subjects `civic.<env>.<kind>.<verb>`.
 * Adapters: in-memory (one process, `civicgraph up`) and NATS JetStream (distributed).
 * Both pass the one contract suite in testing/event-bus.contract.ts.
 */
export interface EventBus {
  /**
   * Publishes an event. Resolves once the bus has accepted it (for JetStream, once the
   * stream has stored it). Publishing an event id already published within the
   * de-duplication window is accepted and not delivered again.
   */
  publish(event: CivicEvent): Promise<void>;
  /**
   * Publishes events in order, stopping at the first the bus refuses: none is ever
   * accepted ahead of an earlier one. Resolves with how many were accepted, and the
   * refusal when one stopped it (what an outbox relay acknowledges, and what it logs).
   */
  publishAll(events: readonly CivicEvent[]): Promise<PublishOutcome>;
  /**
   * Delivers events published after the returned promise resolves whose subject matches
   * `filter` (NATS wildcards: `*` one token, `>` the rest), in publish order. A handler
   * that throws has the event delivered again (at least once).
   */
  subscribe(filter: string, handler: EventHandler, options?: SubscribeOptions): Promise<Subscription>;
  /** Stops every subscription after in-flight handlers finish, then closes connections. */
  close(): Promise<void>;
  /**
   * Whether the bus can be reached now: false while the connection to NATS is down (caches
   * then fall back to their lifetimes, and readiness says so). The in-process bus is
   * connected until it is closed.
   */
  connected(): boolean;
}

/** What {@link EventBus.publishAll} accepted: the first `published` events, and why it stopped short of the rest. */
export interface PublishOutcome {
  published: number;
  error?: unknown;
}

/** publishAll for a bus whose events are published one at a time. */
export async function publishEach(
  bus: Pick<EventBus, 'publish'>,
  events: readonly CivicEvent[],
): Promise<PublishOutcome> {
  for (let i = 0; i < events.length; i++) {
    try {
      await bus.publish(events[i]!);
    } catch (error) {
      return { published: i, error };
    }
  }
  return { published: events.length };
}

export type EventHandler = (event: CivicEvent) => Promise<void> | void;

export interface SubscribeOptions {
  /** Redelivery delay after a handler throws, in ms. Default 1000. */
  retryDelayMs?: number;
  /**
   * A durable subscription's name. Events published while no subscription of that name is
   * open are kept and delivered, in order, to the next one (each acknowledged only once
   * its handler returns): what a consumer that must not miss events while it restarts
   * needs (the webhook dispatcher). Without it, a subscription sees only what is published
   * while it is open (cache invalidators). On the in-process bus the backlog lives as long
   * as the bus.
   */
  durable?: string;
}

export interface Subscription {
  /** Stops delivery; resolves after the in-flight handler (if any) finishes. */
  unsubscribe(): Promise<void>;
}

/** True when `subject` matches a NATS-style `filter`. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}

/** Thrown by publish or subscribe once close() has been called. */
export class BusClosedError extends UpstreamUnavailableError {
  constructor() {
    super('The event bus is closed.');
  }
}
