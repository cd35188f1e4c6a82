import type { Response } from 'express';
import type { ExecutionResult } from 'graphql';
import type { RateLimiter } from '@civicgraph/kit';
import { contextOf } from '../http/request-context.js';
import { setRateHeaders } from '../http/rate-headers.js';

/**
 * A GraphQL answer counts against the key's per-minute limit by what it holds, as GitHub's
 * API charges by nodes: one request per this many objects and list items in `data` (at
 * least one). A ballot is one request; fifty aliased full introspections are hundreds, so
 * a self-serve key cannot keep the service busy with answers that cost far more to build
 * than a request (bench:graphql, "A hostile neighbour").
 */
export const NODES_PER_REQUEST = 100;

/**
 * Objects and list items in a result's data. An outline (a `JSON` GeoJSON geometry) is one
 * value a single resolver returns, not nodes resolved: it counts once (its size is held to
 * the plan's answer ceiling instead, geometry-cost.ts). It is known by its shape, not by a
 * key name a caller could alias: `coordinates` holding only numbers in nested arrays, and
 * nothing else in the object but scalars.
 */
export function resultNodes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (isGeometry(value)) return 1;
  let n = 1;
  for (const v of Array.isArray(value) ? value : Object.values(value)) n += resultNodes(v);
  return n;
}

function isGeometry(value: object): boolean {
  if (Array.isArray(value) || !('coordinates' in value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'coordinates' ? !onlyNumbers(v) : v !== null && typeof v === 'object') return false;
  }
  return true;
}

function onlyNumbers(v: unknown): boolean {
  return typeof v === 'number' || (Array.isArray(v) && v.every(onlyNumbers));
}

/** How many requests an answer counts as. */
export function requestsFor(result: ExecutionResult): number {
  return Math.max(1, Math.ceil(resultNodes(result.data) / NODES_PER_REQUEST));
}

/** Charges the requests beyond the one already counted, and says so in the rate headers. */
export async function chargeAnswer(res: Response, limiter: RateLimiter, requests: number): Promise<void> {
  const bucket = contextOf(res).bucket;
  if (bucket === undefined || requests <= 1) return;
  const d = await limiter.charge(bucket.id, bucket.limit, requests - 1);
  // This answer is given; the headers tell the caller what is left (0 refuses the next).
  setRateHeaders(res, { ...d, allowed: true });
}
