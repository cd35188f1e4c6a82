import type { ExecutionResult } from 'graphql';
import { SlugCache } from './slug-cache.js';

/**
 * Results of GraphQL operations, so a repeated operation (same document, variables, caller
 * policy, version and day) costs a lookup instead of an execution across the stitched
 * subschemas. Indexed by every slug the upstream answers behind the result named (not only
 * those the query selected), so the data-change events drop exactly the results a change
 * could alter; never older than the candidacy freshness (five minutes).
 */
export class GraphQLResultCache extends SlugCache<ExecutionResult> {
  constructor(maxEntries = 5_000, ttlMs = 300_000, now?: () => number, maxBytes = 64 * 1024 * 1024) {
    // A result's weight is its JSON's length (UTF-16 units: about the bytes it holds as a string, a lower bound on the heap it holds as objects).
    super(maxEntries, ttlMs, now, { maxBytes, bytesOf: (r) => 2 * JSON.stringify(r).length });
  }
}
