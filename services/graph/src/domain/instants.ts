import { isIsoDate } from '@civicgraph/kit';

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Milliseconds since the epoch of an RFC 3339 instant, or NaN when the text is not one.
 * `Date.parse` alone is too lenient for source data: it reads `11/5/24` as a local date.
 */
export function parseInstant(text: unknown): number {
  if (typeof text !== 'string') return Number.NaN;
  const m = RFC3339.exec(text);
  return m && isIsoDate(m[1]!) ? Date.parse(text) : Number.NaN;
}
