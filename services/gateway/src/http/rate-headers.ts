import type { ServerResponse } from 'node:http';
import type { RateDecision } from '@civicgraph/kit';

/** Writes the Civic-RateLimit-* headers (and Retry-After when exhausted). */
export function setRateHeaders(res: ServerResponse, d: RateDecision, now = Date.now()): void {
  const headers = rateHeaders(d, now);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}

/** The Civic-RateLimit-* headers (and Retry-After when exhausted), as a flat name, value list. */
export function rateHeaders(d: RateDecision, now = Date.now()): string[] {
  const headers = [
    'Civic-RateLimit-Limit',
    String(d.limit),
    'Civic-RateLimit-Remaining',
    String(d.remaining),
    'Civic-RateLimit-Reset',
    String(d.resetAt),
  ];
  if (!d.allowed) headers.push('Retry-After', String(Math.max(1, Math.ceil(d.resetAt - now / 1000))));
  return headers;
}
