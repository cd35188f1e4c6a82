import { lagSeconds, randomBase62, type Logger } from '@civicgraph/kit';
import { attempt, type AttemptResult } from '../deliver.js';
import { retryDelay } from '../retry-schedule.js';
import { signatureHeaders } from '../signing.js';
import { checkTarget, type Resolver } from '../target-url.js';
import type { AttemptRecord, Delivery, DeliveryLog } from './delivery.js';

/** A receiver as the deliverer needs it. */
export interface Endpoint {
  id: string;
  url: string;
  /** The environment of the key that owns it: live endpoints are held to https and public addresses. */
  environment: 'test' | 'live';
  /** Signing secrets, newest first (two while a secret is being rotated). */
  secrets: string[];
  enabled: boolean;
}

/** Where the deliverer reads endpoints, and tells of one that answered 410 Gone. */
export interface EndpointDirectory {
  get(id: string): Promise<Endpoint | undefined>;
  disable(id: string, reason: string): Promise<void>;
}

export interface DelivererOptions {
  log: DeliveryLog;
  endpoints: EndpointDirectory;
  logger: Logger;
  /** Attempts in flight per endpoint at most (default 4): a slow receiver only ever holds its own. */
  concurrencyPerEndpoint?: number;
  /** One attempt's limit, ms (default 10 s). */
  timeoutMs?: number;
  /** How often due retries are looked for, ms (default 1 s). */
  pollMs?: number;
  /** Delay after failed attempt n, or undefined after the last (default the published schedule). */
  delays?: (attempt: number) => number | undefined;
  clock?: () => Date;
  resolver?: Resolver;
}

interface Lane {
  active: number;
  waiting: Delivery[];
}

/**
 * Delivers events to endpoints, at least once: a delivery is written to the log before its
 * first attempt and after every attempt, so a restart picks up whatever was pending. Each
 * endpoint has its own lane of at most `concurrencyPerEndpoint` attempts, so one receiver
 * that hangs until the timeout delays nobody else. Failed attempts are retried on the
 * schedule (exponential, with jitter) until one succeeds or the schedule ends; a 410 Gone
 * disables the endpoint.
 */
export class Deliverer {
  private readonly lanes = new Map<string, Lane>();
  /** Deliveries running or waiting in a lane: the poll must not start them twice. */
  private readonly inFlight = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly concurrency: number;
  private readonly clock: () => Date;
  private readonly delays: (attempt: number) => number | undefined;

  constructor(private readonly options: DelivererOptions) {
    this.concurrency = options.concurrencyPerEndpoint ?? 4;
    this.clock = options.clock ?? (() => new Date());
    this.delays = options.delays ?? ((n) => retryDelay(n));
  }

  /** Starts looking for due deliveries (those left pending by a previous run first). */
  start(): void {
    const tick = () => {
      if (this.stopped) return;
      void this.poll().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs ?? 1_000);
      });
    };
    tick();
  }

  /** Stops polling and waits for the attempts in flight; what is left stays pending in the log. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Records a new delivery of `body` to an endpoint and starts its first attempt. */
  async enqueue(endpointId: string, messageId: string, type: string, body: string): Promise<Delivery> {
    const now = this.clock().toISOString();
    const delivery: Delivery = {
      id: `dlv_${randomBase62(20)}`,
      endpointId,
      messageId,
      type,
      body,
      status: 'pending',
      attempts: [],
      nextAttemptAt: now,
      createdAt: now,
    };
    await this.options.log.put(delivery);
    this.schedule(delivery);
    return delivery;
  }

  /**
   * Records a delivery under a caller-chosen id unless one with that id exists, and starts
   * it; false when it existed (the dispatcher handling one event twice).
   */
  async enqueueOnce(id: string, endpointId: string, messageId: string, type: string, body: string): Promise<boolean> {
    if ((await this.options.log.get(id)) !== undefined) return false;
    const now = this.clock().toISOString();
    const delivery: Delivery = {
      id,
      endpointId,
      messageId,
      type,
      body,
      status: 'pending',
      attempts: [],
      nextAttemptAt: now,
      createdAt: now,
    };
    await this.options.log.put(delivery);
    this.schedule(delivery);
    return true;
  }

  /** A new delivery of an earlier one's message (same `webhook-id`, same body), started now. */
  async redeliver(deliveryId: string): Promise<Delivery | undefined> {
    const earlier = await this.options.log.get(deliveryId);
    if (earlier === undefined) return undefined;
    return this.enqueue(earlier.endpointId, earlier.messageId, earlier.type, earlier.body);
  }

  private async poll(): Promise<void> {
    try {
      const due = await this.options.log.due(this.clock().toISOString(), 500);
      for (const d of due) this.schedule(d);
    } catch (err) {
      this.options.logger.error({ err }, 'webhook delivery poll failed');
    }
  }

  private schedule(delivery: Delivery): void {
    if (this.stopped || this.inFlight.has(delivery.id)) return;
    this.inFlight.add(delivery.id);
    const lane = this.lanes.get(delivery.endpointId) ?? { active: 0, waiting: [] };
    this.lanes.set(delivery.endpointId, lane);
    lane.waiting.push(delivery);
    this.drain(delivery.endpointId, lane);
  }

  private drain(endpointId: string, lane: Lane): void {
    while (lane.active < this.concurrency && lane.waiting.length > 0 && !this.stopped) {
      const next = lane.waiting.shift()!;
      lane.active++;
      const run = this.run(next).finally(() => {
        lane.active--;
        this.inFlight.delete(next.id);
        this.running.delete(run);
        if (lane.active === 0 && lane.waiting.length === 0) this.lanes.delete(endpointId);
        else this.drain(endpointId, lane);
      });
      this.running.add(run);
    }
  }

  private async run(delivery: Delivery): Promise<void> {
    const endpoint = await this.options.endpoints.get(delivery.endpointId);
    const startedAt = this.clock();
    if (endpoint === undefined || !endpoint.enabled) {
      await this.options.log.put({ ...delivery, status: 'failed', nextAttemptAt: '' });
      return;
    }
    const result = await this.attemptOnce(endpoint, delivery, startedAt);
    const record: AttemptRecord = {
      at: startedAt.toISOString(),
      status: result.status,
      latencyMs: result.latencyMs,
      excerpt: result.excerpt,
      ...(result.error === undefined ? {} : { error: result.error }),
    };
    const attempts = [...delivery.attempts, record];
    if (result.ok) {
      // From the event's arrival to its acknowledgement, retries included.
      lagSeconds.observe(
        { stage: 'webhook_delivery' },
        (this.clock().getTime() - Date.parse(delivery.createdAt)) / 1000,
      );
      return this.options.log.put({ ...delivery, attempts, status: 'succeeded', nextAttemptAt: '' });
    }
    if (result.status === 410) {
      await this.options.endpoints.disable(endpoint.id, 'The receiver answered 410 Gone.');
      return this.options.log.put({ ...delivery, attempts, status: 'failed', nextAttemptAt: '' });
    }
    const delay = this.delays(attempts.length);
    const next = delay === undefined ? '' : new Date(this.clock().getTime() + delay).toISOString();
    await this.options.log.put({
      ...delivery,
      attempts,
      status: delay === undefined ? 'failed' : 'pending',
      nextAttemptAt: next,
    });
  }

  /** The receiver is checked again on every attempt (its name may now resolve elsewhere). */
  private async attemptOnce(endpoint: Endpoint, delivery: Delivery, at: Date): Promise<AttemptResult> {
    let target;
    try {
      target = await checkTarget(endpoint.url, endpoint.environment, 'url', this.options.resolver);
    } catch (err) {
      return { ok: false, status: 0, latencyMs: 0, error: (err as Error).message, excerpt: '' };
    }
    const headers = signatureHeaders(endpoint.secrets, delivery.messageId, delivery.body, at);
    return attempt(
      target,
      delivery.body,
      headers,
      this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs },
    );
  }
}
