import { createHash } from 'node:crypto';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { UnauthenticatedError, type CivicError } from '@civicgraph/kit';
import type { AuthUpstream } from '../upstream/auth-client.js';

interface Entry {
  expires: number;
  principal?: Principal;
  error?: CivicError;
  pending?: Promise<Principal>;
}

/**
 * Caches principals (and refusals) by key hash for `ttlMs`, so a request does not pay an
 * auth hop every time. A revoked key therefore stops working within `ttlMs`. Concurrent
 * misses for one key share one upstream call. Only refusals are cached among errors: an
 * unavailable auth service is retried on the next request.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly auth: AuthUpstream,
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  async get(key: string, now = Date.now()): Promise<Principal> {
    const id = createHash('sha256').update(key).digest('base64url');
    const hit = this.entries.get(id);
    if (hit !== undefined && (hit.pending !== undefined || hit.expires > now)) return this.unwrap(hit);
    const entry: Entry = { expires: now + this.ttlMs };
    entry.pending = this.auth.authenticate(key).then(
      (p) => this.settle(entry, { principal: p }),
      (err: CivicError) => {
        if (!(err instanceof UnauthenticatedError)) {
          this.entries.delete(id);
          throw err;
        }
        // The key the caller sent in Authorization is what was refused: say so, as for a malformed header.
        const refused = err.field === undefined ? new UnauthenticatedError(err.message, { field: 'Authorization', cause: err }) : err;
        this.settle(entry, { error: refused });
        throw refused;
      },
    );
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(id, entry);
    return entry.pending;
  }

  private settle(entry: Entry, result: Pick<Entry, 'principal' | 'error'>): Principal {
    Object.assign(entry, result);
    delete entry.pending;
    return entry.principal as Principal;
  }

  private unwrap(e: Entry): Promise<Principal> {
    if (e.pending !== undefined) return e.pending;
    return e.error !== undefined ? Promise.reject(e.error) : Promise.resolve(e.principal as Principal);
  }
}
