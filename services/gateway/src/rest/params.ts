import type { Request } from 'express';
import { assertCoordinate, InvalidParameterError, isIsoDate, todayUtc } from '@civicgraph/kit';

/**
 * Query-string readers. Every failure names the parameter; unknown parameters are refused
 * (a typo such as `lon` must not silently fall back to a default).
 */
export type Query = Request['query'];

/** Parameters every /v1 endpoint accepts (interface spec, "Common parameters"). */
export const COMMON_PARAMS = ['min_confidence', 'cursor'] as const;

export function assertKnownParams(query: Query, allowed: readonly string[]): void {
  const known = new Set([...allowed, ...COMMON_PARAMS]);
  for (const name of Object.keys(query)) {
    if (!known.has(name)) {
      throw new InvalidParameterError(name, `Unknown parameter "${name}". Accepted: ${[...known].join(', ')}.`);
    }
  }
}

function single(query: Query, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new InvalidParameterError(name, `${name} must be given once, as a plain value.`);
  return v;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A required finite decimal within [min, max]. */
export function number(query: Query, name: string, min: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') throw new InvalidParameterError(name, `${name} is required.`);
  const n = DECIMAL.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) throw new InvalidParameterError(name, `${name} must be a decimal number, got "${raw}".`);
  if (n < min || n > max) throw new InvalidParameterError(name, `${name} must be between ${min} and ${max}, got ${raw}.`);
  return n;
}

/** A required coordinate parameter, under the one coordinate rule. */
export function coordinate(query: Query, name: 'lat' | 'lng'): number {
  return assertCoordinate(name, number(query, name, -Infinity, Infinity));
}

/** An optional `YYYY-MM-DD` calendar date; absent → today (UTC). */
export function dateParam(query: Query, name: string, now = new Date()): string {
  const raw = single(query, name);
  if (raw === undefined) return todayUtc(now);
  if (!isIsoDate(raw)) throw new InvalidParameterError(name, `${name} must be a calendar date written YYYY-MM-DD, got "${raw}".`);
  return raw;
}

/** `min_confidence`: optional, 0..1, default 0. */
export function minConfidence(query: Query): number {
  return query['min_confidence'] === undefined ? 0 : number(query, 'min_confidence', 0, 1);
}

/** Single-page endpoints have no valid cursor: any value is refused rather than ignored. */
export function assertNoCursor(query: Query): void {
  if (single(query, 'cursor') !== undefined) {
    throw new InvalidParameterError('cursor', 'This endpoint returns a single page; there is no cursor to continue from.');
  }
}
