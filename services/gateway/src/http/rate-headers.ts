import type { ServerResponse } from 'node:http';
import type { RateDecision } from '@civicgraph/kit';

/** Writes the Civic-RateLimit-* headers (and Retry-After when exhausted). */
export function setRateHeaders(res: ServerResponse, d: RateDecision, now = Date.now()): void {
  // Set one by one (no list in between): this runs for every answer.
  res.setHeader('Civic-RateLimit-Limit', String(d.limit));
  res.setHeader('Civic-RateLimit-Remaining', String(d.remaining));
  res.setHeader('Civic-RateLimit-Reset', String(d.resetAt));
  if (!d.allowed) res.setHeader('Retry-After', retryAfter(d, now));
}

/** Seconds until the window resets, at least 1. */
function retryAfter(d: RateDecision, now: number): string {
  return String(Math.max(1, Math.ceil(d.resetAt - now / 1000)));
}
