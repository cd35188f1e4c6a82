/**
 * The RateLimiter port. The auth service decides each key's limit (by plan); the edge
 * counts requests against it through this port, so a request pays no extra hop. Adapters:
 * memory (one gateway process); a shared store (Redis) when gateways are replicated.
 *
 * Windows are fixed calendar minutes: simple to explain, and `Civic-RateLimit-Reset` is
 * the unix second at which the current minute ends.
 */
export interface RateLimiter {
  /** Counts one request against `bucket` if the limit allows it. */
  consume(bucket: string, limit: number, now?: number): Promise<RateDecision>;
  /** Reports the bucket's state without counting (for 304s and 429s). */
  peek(bucket: string, limit: number, now?: number): Promise<RateDecision>;
  /**
   * Counts `requests` more against `bucket` after the fact, whatever is left (a request
   * that turned out to weigh several: a GraphQL answer charged by its size). The window may
   * go over its limit; the next request is then refused until it resets.
   */
  charge(bucket: string, limit: number, requests: number, now?: number): Promise<RateDecision>;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
}

const WINDOW_MS = 60_000;

/** In-process fixed-window limiter; windows older than the current one are dropped. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, { window: number; used: number }>();

  async consume(bucket: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const entry = this.entry(bucket, now);
    const allowed = entry.used < limit;
    if (allowed) entry.used += 1;
    return decision(entry, limit, allowed);
  }

  async peek(bucket: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const entry = this.entry(bucket, now);
    return decision(entry, limit, entry.used < limit);
  }

  async charge(bucket: string, limit: number, requests: number, now = Date.now()): Promise<RateDecision> {
    const entry = this.entry(bucket, now);
    entry.used += Math.max(0, Math.floor(requests));
    return decision(entry, limit, entry.used < limit);
  }

  private entry(bucket: string, now: number): { window: number; used: number } {
    const window = Math.floor(now / WINDOW_MS);
    let e = this.counts.get(bucket);
    if (e === undefined || e.window !== window) {
      if (this.counts.size > 100_000) this.sweep(window);
      e = { window, used: 0 };
      this.counts.set(bucket, e);
    }
    return e;
  }

  private sweep(window: number): void {
    for (const [k, v] of this.counts) if (v.window !== window) this.counts.delete(k);
  }
}

function decision(e: { window: number; used: number }, limit: number, allowed: boolean): RateDecision {
  return { allowed, limit, remaining: Math.max(0, limit - e.used), resetAt: ((e.window + 1) * WINDOW_MS) / 1000 };
}
