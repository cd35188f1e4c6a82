import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { CivicEvent } from './catalogue.js';
import type { EventHandler } from './event-bus.js';
import type { TraceHeaders } from '../tracing/spans.js';
import { consuming, type BusSystem } from './trace-events.js';

/** Redelivery delay used when a subscriber does not choose one (SubscribeOptions). */
export const DEFAULT_RETRY_DELAY_MS = 1000;

/**
 * Which subscription's handler the current async context is running. Unsubscribing (or
 * closing the bus) from inside one's own handler must not wait for that handler, or it
 * would wait for itself forever.
 */
const handlerScope = new AsyncLocalStorage<object>();

/** True when called (directly or via awaits) from a handler run for `owner`. */
export function insideHandlerOf(owner: object): boolean {
  return handlerScope.getStore() === owner;
}

/** How one subscription hands an event to its handler. */
export interface DeliveryOptions {
  /** The subscription, for insideHandlerOf. */
  owner: object;
  /** Wait between attempts after the handler throws, in ms. */
  retryDelayMs: number;
  /** Aborted when the subscription stops; ends retrying early. */
  signal: AbortSignal;
  logger?: Logger | undefined;
  /** The bus, and the trace headers the event's message carried: each attempt is a span continuing that trace. */
  system: BusSystem;
  trace?: TraceHeaders | undefined;
}

/**
 * Calls `handler` until it returns without throwing. The caller does not move on to the
 * next event meanwhile, which is what keeps per-subscription order across retries.
 * Resolves false when the subscription stopped before the event was handled.
 */
export async function deliverUntilHandled(
  event: CivicEvent,
  handler: EventHandler,
  options: DeliveryOptions,
): Promise<boolean> {
  for (let attempt = 1; !options.signal.aborted; attempt++) {
    try {
      await handlerScope.run(options.owner, () =>
        consuming(options.system, event, options.trace, attempt, () => handler(event)),
      );
      return true;
    } catch (err) {
      options.logger?.warn(
        { err, eventId: event.id, subject: event.subject, attempt, retryDelayMs: options.retryDelayMs },
        'event handler failed; redelivering',
      );
    }
    if (!(await pause(options.retryDelayMs, options.signal))) return false;
  }
  return false;
}

/** Waits `ms`; resolves false instead if `signal` aborts first. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
