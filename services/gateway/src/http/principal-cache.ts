import { hash } from 'node:crypto';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { cacheLookups, UnauthenticatedError, type CivicError } from '@civicgraph/kit';
import type { AuthUpstream } from '../upstream/auth-client.js';
import { LRUCache } from 'lru-cache';

/** Share of the TTL after which a hit refreshes its principal in the background. */
const REFRESH_AHEAD_AT = 0.8;

interface Entry {
  expires: number;
  /** When a hit last moved the entry to the young end of its map (at most once a second). */
  touched: number;
  /** From this time a hit starts one background refresh; until `expires` it still answers. */
  refreshAt: number;
  principal?: Principal;
  error?: CivicError;
  pending?: Promise<Principal>;
  /** `principal`, settled (made on the first hit). */
  answer?: Promise<Principal>;
  refreshing?: boolean;
}

/**
 * Caches principals (and refusals) by key hash for `ttlMs`, so a request does not pay an
 * auth hop every time. A revocation announced on the bus drops the key at once (`dropKey`);
 * without the bus a revoked key still stops working within `ttlMs`. Concurrent
 * misses for one key share one upstream call. Only refusals are cached among errors: an
 * unavailable auth service is retried on the next request.
 *
 * A key in steady use never waits for auth: once 80 % of its entry's TTL has passed, a hit
 * answers from the entry and refreshes it in the background, so no request queues behind
 * the refresh (otherwise every key's requests would stall for an auth round trip once
 * every `ttlMs`). The refresh never extends what auth has not confirmed: a refusal
 * replaces the entry at once (revocation is seen sooner, not later), and an unreachable
 * auth service leaves the entry to expire, after which requests fail closed.
 *
 * Keys auth confirmed and everything else (lookups in flight, refusals) are kept apart,
 * each within a count and a byte budget (50,000 and 32 MB; 10,000 and 4 MB), evicting its
 * least recently used entries when full, so a flood of made-up keys can only push out
 * other made-up keys, never a key in use. A miss may be refused before it
 * reaches auth (`gate`: the caller's limit on unknown keys per client address).
 */
export class PrincipalCache {
  /** Keys auth confirmed. */
  private readonly entries: LRUCache<string, Entry>;
  /** Lookups in flight and refusals. */
  private readonly others: LRUCache<string, Entry>;

  constructor(
    private readonly auth: Pick<AuthUpstream, 'authenticate'>,
    private readonly ttlMs: number,
    maxEntries = 50_000,
    maxOthers = 10_000,
    maxBytes = { confirmed: 32 * 2 ** 20, other: 4 * 2 ** 20 },
  ) {
    this.entries = new LRUCache({ max: maxEntries, maxSize: maxBytes.confirmed, sizeCalculation: weigh });
    this.others = new LRUCache({ max: maxOthers, maxSize: maxBytes.other, sizeCalculation: weigh });
  }

  /** What the entries weigh, by `weigh`'s measure. */
  get bytes(): { confirmed: number; other: number } {
    return { confirmed: this.entries.calculatedSize, other: this.others.calculatedSize };
  }

  /**
   * The principal of `key`; on a miss `gate` runs first and may refuse (reject) without
   * asking auth, unless the key is one auth confirmed whose entry has expired. Not an async function: a hit hands back its settled promise as it is,
   * without the extra turns an async function's own promise would add to every request.
   */
  get(key: string, now = Date.now(), gate?: () => Promise<void>): Promise<Principal> {
    // One-shot hash: a third of createHash's cost, on every request.
    const id = hash('sha256', key, 'base64url');
    const hit = this.entries.peek(id) ?? this.others.peek(id);
    if (hit === undefined || (hit.pending === undefined && hit.expires <= now)) {
      cacheLookups.inc({ cache: 'principal', outcome: 'miss' });
      // An expired key auth had confirmed is renewed ungated: it is not an unknown key.
      const confirmed = hit?.principal !== undefined;
      return gate === undefined || confirmed ? this.load(id, key, now) : gate().then(() => this.load(id, key, now));
    }
    cacheLookups.inc({ cache: 'principal', outcome: 'hit' });
    if (hit.principal !== undefined) {
      if (now - hit.touched >= 1_000) this.touch(id, hit, now);
      if (!hit.refreshing && now >= hit.refreshAt) this.refreshAhead(id, key, hit, now);
    }
    return this.unwrap(hit);
  }

  /** Entries held: confirmed keys, and lookups in flight or refusals. */
  get size(): { confirmed: number; other: number } {
    return { confirmed: this.entries.size, other: this.others.size };
  }

  /**
   * Forgets every cached answer for a key id (a revocation or rotation announced on the
   * bus), and every lookup in flight, which may have started before the change: the next
   * request for the key asks auth again. Returns how many entries were dropped.
   */
  dropKey(keyId: string): number {
    let dropped = 0;
    for (const map of [this.entries, this.others]) {
      for (const [id, entry] of [...map.entries()] as [string, Entry][]) {
        if (entry.pending !== undefined || entry.principal?.keyId === keyId) {
          map.delete(id);
          dropped++;
        }
      }
    }
    return dropped;
  }

  /** A miss: callers wait for auth (and share the one call). */
  private load(id: string, key: string, now: number): Promise<Principal> {
    const entry = this.fresh({}, now);
    entry.pending = this.auth.authenticate(key).then(
      (p) => {
        const principal = this.settle(entry, { principal: p });
        // Confirmed: from the others to the confirmed keys (unless dropped meanwhile).
        if (this.others.peek(id) === entry) {
          this.others.delete(id);
          this.entries.set(id, entry);
        }
        return principal;
      },
      (err: CivicError) => {
        if (!(err instanceof UnauthenticatedError)) {
          if (this.others.peek(id) === entry) this.others.delete(id);
          throw err;
        }
        const refused = refusal(err);
        this.settle(entry, { error: refused });
        throw refused;
      },
    );
    this.entries.delete(id);
    this.others.set(id, entry);
    return entry.pending;
  }

  /** A hit near expiry: the caller is answered from `stale` while auth confirms the key. */
  private refreshAhead(id: string, key: string, stale: Entry, now: number): void {
    stale.refreshing = true;
    this.auth.authenticate(key).then(
      (p) => this.replace(id, stale, this.fresh({ principal: p }, now)),
      (err: CivicError) => {
        if (err instanceof UnauthenticatedError && this.entries.peek(id) === stale) {
          // Revoked: the refusal moves to the others.
          this.entries.delete(id);
          this.others.set(id, this.fresh({ error: refusal(err) }, now));
          return;
        }
        if (err instanceof UnauthenticatedError) return;
        // Auth unreachable: keep answering until the entry expires, trying again halfway there.
        stale.refreshing = false;
        stale.refreshAt = now + (stale.expires - now) / 2;
      },
    );
  }

  /** An entry whose lifetime counts from `now` (for a refresh, when it was asked for). */
  private fresh(result: Pick<Entry, 'principal' | 'error'>, now: number): Entry {
    return { ...result, expires: now + this.ttlMs, refreshAt: now + this.ttlMs * REFRESH_AHEAD_AT, touched: now };
  }

  /** Moves a confirmed key's entry to the young end of its map. */
  private touch(id: string, entry: Entry, now: number): void {
    entry.touched = now;
    if (this.entries.peek(id) === entry) this.entries.get(id);
  }

  /** Swaps in a refreshed entry unless `old` was dropped or superseded meanwhile. */
  private replace(id: string, old: Entry, next: Entry): void {
    if (this.entries.peek(id) === old) this.entries.set(id, next);
  }

  private settle(entry: Entry, result: Pick<Entry, 'principal' | 'error'>): Principal {
    Object.assign(entry, result);
    delete entry.pending;
    return entry.principal as Principal;
  }

  private unwrap(e: Entry): Promise<Principal> {
    if (e.pending !== undefined) return e.pending;
    if (e.error !== undefined) return Promise.reject(e.error);
    // One settled promise per entry, handed to each of its hits.
    return (e.answer ??= Promise.resolve(e.principal as Principal));
  }
}

/** The key the caller sent in Authorization is what was refused: say so, as for a malformed header. */
function refusal(err: UnauthenticatedError): UnauthenticatedError {
  return err.field === undefined ? new UnauthenticatedError(err.message, { field: 'Authorization', cause: err }) : err;
}

/**
 * What an entry holds on the heap, roughly: its record and timers, and a principal's key id
 * and jurisdictions, or a refusal's message (a lookup in flight is weighed as one).
 */
function weigh(e: Entry): number {
  const p = e.principal;
  if (p === undefined) return 512;
  return 256 + 2 * p.keyId.length + 32 * ((p.entitlements?.states.length ?? 0) + (p.entitlements?.tiers.length ?? 0));
}
