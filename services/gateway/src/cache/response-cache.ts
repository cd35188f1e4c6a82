import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { policyFingerprint, todayUtc } from '@civicgraph/kit';
import type { Rendered } from './geo-cache.js';
import { SlugCache } from './slug-cache.js';

/** What the graph-backed endpoints cache: the rendered response and the slugs it shows. */
export interface CachedResponse extends Rendered {
  /** Cache-Control of the response. */
  cacheControl: string;
}

/**
 * Rendered responses of the graph-backed endpoints, so a repeated request (and above all a
 * conditional one answered 304) costs no upstream call. Keyed by `responseKey`; indexed
 * by every slug in the body; dropped by the data-change events that name one (see the
 * invalidator), and never served older than the endpoints' freshness (five minutes).
 */
export class ResponseCache extends SlugCache<CachedResponse> {
  constructor(maxEntries = 10_000, ttlMs = 300_000, now?: () => number, maxBytes = 128 * 1024 * 1024) {
    super(maxEntries, ttlMs, now, { maxBytes, bytesOf: renderedBytes });
  }
}

/** Bytes of a rendered body (one buffer or chunks) and its tag. */
export function renderedBytes(r: Rendered): number {
  const body = Buffer.isBuffer(r.body) ? r.body.length : (r.body as readonly Buffer[]).reduce((n, b) => n + b.length, 0);
  return body + r.etag.length + 200;
}

/**
 * The key of an answer: everything it depends on. The caller's policy fingerprint (what
 * the policy lets it see), the API version, today's date (for the endpoints' date
 * defaults) and the request URL, path and query as sent. Only a URL that passed the whole
 * pipeline (edge and parameter validation) is ever stored under it.
 */
export function responseKey(principal: Principal, version: string, url: string): string {
  return `${policyFingerprint(principal)}|${version}|${todayUtc()}|${url}`;
}

const SLUG = /^(region|election|contest|office|candidacy|person|party|position|provenance|result):[a-z0-9]/;

/** Every slug anywhere in a response body (any string shaped like one). */
export function slugsIn(body: unknown, out: Set<string> = new Set()): string[] {
  if (typeof body === 'string') {
    if (SLUG.test(body)) out.add(body);
  } else if (Array.isArray(body)) {
    for (const v of body) slugsIn(v, out);
  } else if (body !== null && typeof body === 'object') {
    for (const v of Object.values(body)) slugsIn(v, out);
  }
  return [...out];
}
