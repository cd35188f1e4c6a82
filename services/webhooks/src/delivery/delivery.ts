/** One attempt as the delivery log keeps it. */
export interface AttemptRecord {
  /** RFC 3339 instant the attempt started. */
  at: string;
  /** The receiver's status code; 0 when none arrived. */
  status: number;
  latencyMs: number;
  /** Why there was no usable answer (`timeout`, `ECONNREFUSED`, `redirect`, a refused address…). */
  error?: string;
  /** The first kilobyte of the answer. */
  excerpt: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * One event on its way to one endpoint: the exact body sent on every attempt (so the
 * signature over it and the receiver's dedupe by `webhook-id` hold across retries), and
 * every attempt made.
 */
export interface Delivery {
  /** `dlv_<base62>`. */
  id: string;
  endpointId: string;
  /** The event id; sent as `webhook-id`, the same on every attempt and redelivery. */
  messageId: string;
  type: string;
  body: string;
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /** RFC 3339 instant of the next attempt while pending; '' otherwise. */
  nextAttemptAt: string;
  createdAt: string;
}

/** Where deliveries are kept, so none is lost when the dispatcher stops mid-way. */
export interface DeliveryLog {
  /** Stores a delivery as given (new or updated), atomically with its place in the due index. */
  put(delivery: Delivery): Promise<void>;
  get(id: string): Promise<Delivery | undefined>;
  /**
   * An endpoint's deliveries, newest first, strictly older than `before` (a delivery's
   * `listPosition`; a position whose delivery is gone still marks the place).
   */
  listByEndpoint(endpointId: string, limit: number, before?: string): Promise<Delivery[]>;
  /** Pending deliveries whose next attempt is due at `now`, soonest first. */
  due(now: string, limit: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

/** A delivery's place in its endpoint's listing (creation time, then id): what a page cursor carries. */
export function listPosition(d: Pick<Delivery, 'createdAt' | 'id'>): string {
  return `${d.createdAt}|${d.id}`;
}
