import { createHash } from 'node:crypto';
import {
  assertLayer,
  environmentOf,
  type Cursors,
  InvalidParameterError,
  NotFoundError,
  randomBase62,
} from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Deliverer } from '../delivery/deliverer.js';
import { listPosition, type Delivery, type DeliveryLog } from '../delivery/delivery.js';
import { newSigningSecret } from '../signing.js';
import { checkTarget, type Resolver } from '../target-url.js';
import { endpointFields, endpointPatch } from './endpoint-body.js';
import type { EndpointRecord, LmdbEndpointStore } from './endpoint-store.js';

/** Most endpoints one key may have. */
export const MAX_ENDPOINTS_PER_KEY = 20;
/** Longest Idempotency-Key accepted. */
export const MAX_IDEMPOTENCY_KEY = 255;
/** Page size bounds of the listings: DESIGN's, as on every list. */
const LIMIT = { default: 50, max: 200 };

/** A page of a listing: DESIGN's envelope, `nextCursor` '' on the last page. */
export interface Page<T> {
  data: T[];
  nextCursor: string;
}

export interface EndpointServiceOptions {
  store: LmdbEndpointStore;
  log: DeliveryLog;
  deliverer: Deliverer;
  /** Signs the listings' cursors, so a client cannot forge a position or carry one to another list. */
  cursors: Cursors;
  resolver?: Resolver;
  clock?: () => Date;
}

/**
 * The rules of the webhook endpoint API, for every caller alike: the plan gate (from the
 * policy module), ownership (another key's endpoint does not exist for you), the receiver
 * URL rules for the key's environment, idempotent creation, and delivery history.
 */
export class EndpointService {
  constructor(private readonly o: EndpointServiceOptions) {}

  async create(
    p: Principal,
    bodyJson: string,
    idempotencyKey: string,
  ): Promise<{ endpoint: EndpointRecord; secret: string; replayed: boolean }> {
    assertLayer(p, 'webhooks');
    if (idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
      throw new InvalidParameterError(
        'Idempotency-Key',
        `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters.`,
      );
    const bodyHash = createHash('sha256').update(bodyJson).digest('hex');
    if (idempotencyKey !== '') {
      const earlier = await this.o.store.idempotent(p.keyId, idempotencyKey);
      if (earlier !== undefined) {
        if (earlier.bodyHash !== bodyHash)
          throw new InvalidParameterError(
            'Idempotency-Key',
            'This Idempotency-Key was used with a different body; use a new key for a new request.',
          );
        const endpoint = await this.o.store.get(earlier.endpointId);
        if (endpoint !== undefined) return { endpoint, secret: endpoint.secrets[0]!, replayed: true };
      }
    }
    const fields = endpointFields(parse(bodyJson));
    const target = await checkTarget(fields.url, environmentOf(p), 'url', this.o.resolver);
    if ((await this.o.store.ofKey(p.keyId)).length >= MAX_ENDPOINTS_PER_KEY) {
      throw new InvalidParameterError(
        'url',
        `A key may have at most ${MAX_ENDPOINTS_PER_KEY} endpoints; delete one first.`,
      );
    }
    const now = this.now();
    const secret = newSigningSecret();
    const endpoint: EndpointRecord = {
      id: `we_${randomBase62(20)}`,
      keyId: p.keyId,
      principal: p,
      environment: environmentOf(p),
      url: target.url.href,
      events: fields.events,
      states: fields.states,
      description: fields.description,
      secrets: [secret],
      enabled: true,
      disabledReason: '',
      createdAt: now,
      updatedAt: now,
    };
    await this.o.store.create(endpoint, idempotencyKey, bodyHash);
    return { endpoint, secret, replayed: false };
  }

  /** The key's endpoints, oldest first. */
  async list(p: Principal, limit: number, cursor: string): Promise<Page<EndpointRecord>> {
    assertLayer(p, 'webhooks');
    const query = { list: 'webhook_endpoints', key: p.keyId };
    const after = this.o.cursors.decode(cursor, query);
    const all = (await this.o.store.ofKey(p.keyId)).sort((a, b) => compare(position(a), position(b)));
    const from = after === undefined ? all : all.filter((e) => position(e) > after);
    const n = limitOf(limit);
    const data = from.slice(0, n);
    return { data, nextCursor: from.length > n ? this.o.cursors.encode(position(data[n - 1]!), query) : '' };
  }

  async get(p: Principal, id: string): Promise<EndpointRecord> {
    assertLayer(p, 'webhooks');
    const endpoint = await this.o.store.get(id);
    // Another key's endpoint is answered exactly as one that does not exist.
    if (endpoint === undefined || endpoint.keyId !== p.keyId)
      throw new NotFoundError(`No webhook endpoint ${JSON.stringify(id.slice(0, 40))}.`, { field: 'id' });
    return endpoint;
  }

  async update(p: Principal, id: string, bodyJson: string): Promise<EndpointRecord> {
    const endpoint = await this.get(p, id);
    const patch = endpointPatch(parse(bodyJson));
    const url =
      patch.url === undefined
        ? endpoint.url
        : (await checkTarget(patch.url, environmentOf(p), 'url', this.o.resolver)).url.href;
    const enabled = patch.enabled ?? endpoint.enabled;
    const next: EndpointRecord = {
      ...endpoint,
      url,
      enabled,
      events: patch.events ?? endpoint.events,
      states: patch.states ?? endpoint.states,
      description: patch.description ?? endpoint.description,
      disabledReason: enabled ? '' : patch.enabled === false ? 'Disabled by its owner.' : endpoint.disabledReason,
      principal: p,
      updatedAt: this.now(),
    };
    await this.o.store.put(next);
    return next;
  }

  async remove(p: Principal, id: string): Promise<EndpointRecord> {
    const endpoint = await this.get(p, id);
    await this.o.store.remove(id);
    return endpoint;
  }

  /** A `webhook.test` event to the endpoint, now, signed like any other. */
  async sendTest(p: Principal, id: string): Promise<Delivery> {
    const endpoint = await this.get(p, id);
    const eventId = `evt_test_${randomBase62(16)}`;
    const body = JSON.stringify({
      id: eventId,
      type: 'webhook.test',
      timestamp: this.now(),
      environment: endpoint.environment,
      data: { endpoint: endpoint.id },
    });
    return this.o.deliverer.enqueue(endpoint.id, eventId, 'webhook.test', body);
  }

  /** An endpoint's deliveries, newest first. */
  async deliveries(p: Principal, endpointId: string, limit: number, cursor: string): Promise<Page<Delivery>> {
    await this.get(p, endpointId);
    const query = { list: 'webhook_deliveries', endpoint: endpointId };
    const before = this.o.cursors.decode(cursor, query);
    const n = limitOf(limit);
    const data = await this.o.log.listByEndpoint(endpointId, n + 1, before);
    const page = data.slice(0, n);
    return { data: page, nextCursor: data.length > n ? this.o.cursors.encode(listPosition(page[n - 1]!), query) : '' };
  }

  async redeliver(p: Principal, endpointId: string, deliveryId: string): Promise<Delivery> {
    await this.get(p, endpointId);
    const earlier = await this.o.log.get(deliveryId);
    if (earlier === undefined || earlier.endpointId !== endpointId)
      throw new NotFoundError(`No delivery ${JSON.stringify(deliveryId.slice(0, 40))} of this endpoint.`, {
        field: 'delivery_id',
      });
    return (await this.o.deliverer.redeliver(deliveryId))!;
  }

  private now(): string {
    return (this.o.clock?.() ?? new Date()).toISOString();
  }
}

function parse(bodyJson: string): unknown {
  try {
    return JSON.parse(bodyJson);
  } catch {
    throw new InvalidParameterError('body', 'The request body is not valid JSON.');
  }
}

function limitOf(limit: number): number {
  if (limit === 0) return LIMIT.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT.max)
    throw new InvalidParameterError('limit', `limit must be from 1 to ${LIMIT.max}.`);
  return limit;
}

/** An endpoint's place in its key's listing: creation time, then id. */
const position = (e: EndpointRecord): string => `${e.createdAt}|${e.id}`;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
