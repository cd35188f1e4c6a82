import type { ServerResponse } from 'node:http';
import type { RateDecision } from '@civicgraph/kit';

/** Writes the Civic-RateLimit-* headers (and Retry-After when exhausted). */
export function setRateHeaders(res: ServerResponse, d: RateDecision, now = Date.now()): void {
  res.setHeader('Civic-RateLimit-Limit', String(d.limit));
  res.setHeader('Civic-RateLimit-Remaining', String(d.remaining));
  res.setHeader('Civic-RateLimit-Reset', String(d.resetAt));
  if (!d.allowed) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(d.resetAt - now / 1000))));
  }
}
