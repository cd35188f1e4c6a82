import { createHash } from 'node:crypto';
import {
  DATA_EVENT_KINDS,
  type CivicEvent,
  type EventBus,
  type Logger,
  type Subscription,
  topicOf,
} from '@civicgraph/kit';
import type { Deliverer } from './delivery/deliverer.js';
import type { EndpointRecord } from './endpoints/endpoint-store.js';
import { payloadFor } from './payload.js';

/** Where the dispatcher finds subscriptions, and learns of revoked keys. */
export interface Subscriptions {
  enabled(): Promise<EndpointRecord[]>;
  disableKey(keyId: string, reason: string): Promise<number>;
}

export interface DispatcherOptions {
  bus: EventBus;
  /** The subject word events are published under (`civic.<env>.…`). */
  env: string;
  subscriptions: Subscriptions;
  deliverer: Deliverer;
  logger: Logger;
  /** The durable consumer's name; one per deployment, shared by dispatcher replicas. */
  durable?: string;
}

/**
 * Turns data-change events into deliveries. It reads the bus through a durable consumer,
 * so events published while it is down are delivered when it is back; an event is
 * acknowledged only after every matching delivery is in the delivery log, and each
 * (endpoint, event) pair has one delivery id, so a redelivered event adds nothing. An
 * endpoint matches when one of the event's types is among its `events`, the node's state
 * is among its `states` (if it names any), and the policy lets its key see the event at all
 * (`payloadFor`). A revoked key's endpoints are disabled.
 */
export class Dispatcher {
  private subscription: Subscription | undefined;

  constructor(private readonly options: DispatcherOptions) {}

  async start(): Promise<void> {
    const { bus, env } = this.options;
    this.subscription = await bus.subscribe(`civic.${env}.*.*`, async (e) => void (await this.handle(e)), {
      durable: this.options.durable ?? `webhooks-${env}`,
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.unsubscribe();
  }

  /** Every delivery an event makes, enqueued (idempotently) before it is acknowledged. */
  async handle(event: CivicEvent): Promise<number> {
    const { kind } = topicOf(event);
    if (kind === 'key') {
      if (event.subject.endsWith('.revoked'))
        for (const keyId of event.slugs)
          await this.options.subscriptions.disableKey(keyId, 'The key that owns it was revoked.');
      return 0;
    }
    if (!DATA_EVENT_KINDS.has(kind)) return 0;
    const state = nodeState(event);
    let enqueued = 0;
    for (const endpoint of await this.options.subscriptions.enabled()) {
      if (!event.types.some((t) => endpoint.events.includes(t))) continue;
      if (endpoint.states.length > 0 && state !== '' && !endpoint.states.includes(state)) continue;
      const payload = payloadFor(event, endpoint.principal);
      if (payload === undefined) continue;
      const id = deliveryId(endpoint.id, event.id);
      if (await this.options.deliverer.enqueueOnce(id, endpoint.id, event.id, payload.type, JSON.stringify(payload)))
        enqueued++;
    }
    return enqueued;
  }
}

function nodeState(event: CivicEvent): string {
  return (event.node ?? event.officeholder)?.state ?? '';
}

/** One delivery per (endpoint, event): the same event handled twice enqueues once. */
export function deliveryId(endpointId: string, eventId: string): string {
  return `dlv_${createHash('sha256').update(`${endpointId}|${eventId}`).digest('base64url').slice(0, 24)}`;
}
