import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { cacheLookups, NODE_KINDS, policyFingerprint, todayUtc } from '@civicgraph/kit';
import { SlugCache } from './slug-cache.js';

/** An answer as sent: its bytes, their strong ETag, and its Cache-Control. */
export interface CachedResponse {
  body: Buffer;
  /** REST answers' strong ETag; GraphQL answers are not revalidated and carry none (no hash of their bodies). */
  etag?: string;
  cacheControl: string;
  /** Requests a GraphQL answer was charged (by its nodes); REST answers count one. */
  charged?: number;
  /** Content-Type of a GraphQL answer (it follows the request's Accept); REST answers are JSON. */
  contentType?: string;
}

/**
 * The gateway's one response cache: REST answers and GraphQL results as the bytes sent, so
 * a repeated request (and above all a conditional one answered 304) costs no upstream
 * call. Keyed by `responseKey`; indexed by the slugs each answer shows (or, for GraphQL,
 * every slug the upstream answers behind it named); emptied by the data-change events
 * that name one (see invalidator.ts), and never served older than the candidacy
 * freshness (five minutes), the fallback when events stop arriving. At most 50,000
 * answers and 128 MB, index included (room for both layers' answers at a few thousand
 * busy points), least recently used first out.
 */
export class ResponseCache extends SlugCache<CachedResponse> {
  constructor(maxEntries = 50_000, ttlMs = 300_000, now?: () => number, maxBytes = 128 * 2 ** 20) {
    super(maxEntries, ttlMs, now, {
      maxBytes,
      bytesOf: (r) => r.body.length + (r.etag?.length ?? 0) + r.cacheControl.length + 200,
    });
  }

  /** A lookup, counted as a hit or a miss (civic_cache_lookups_total{cache="response"}). */
  override get(key: string): CachedResponse | undefined {
    const found = super.get(key);
    cacheLookups.inc({ cache: 'response', outcome: found === undefined ? 'miss' : 'hit' });
    return found;
  }
}

/**
 * The key of an answer: everything it depends on. The caller's policy fingerprint (what
 * the policy lets it see), the API version, today's date (for date defaults) and the
 * request: the URL as sent, or for GraphQL the operation with its variables. Only a
 * request that passed the whole pipeline (edge and validation) is ever stored under it.
 */
export function responseKey(principal: Principal, version: string, request: string): string {
  return `${policyFingerprint(principal)}|${version}|${todayUtc()}|${request}`;
}

/**
 * The tag of answers that may depend on any node, whether they name it or not (a Cypher
 * aggregate): every data-change event drops them (see invalidator.ts).
 */
export const ANY_CHANGE = '*';

/** The kinds a slug starts with (`kind:` then a lowercase letter or digit): the vocabulary's node kinds. */
const SLUG_KINDS: ReadonlySet<string> = new Set(NODE_KINDS);

/** Whether a string is shaped like a slug; read on every string of every answer stored, so without a regex. */
function isSlug(s: string): boolean {
  const colon = s.indexOf(':');
  if (colon < 1) return false;
  const c = s.charCodeAt(colon + 1);
  return ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) && SLUG_KINDS.has(s.slice(0, colon));
}

/** Every slug anywhere in a response body (any string shaped like one). */
export function slugsIn(body: unknown, out: Set<string> = new Set()): string[] {
  collectSlugs(body, out);
  return [...out];
}

function collectSlugs(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (isSlug(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectSlugs(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const k in value) collectSlugs((value as Record<string, unknown>)[k], out);
  }
}
