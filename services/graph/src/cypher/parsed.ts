import { deepFreeze } from '../store/memory/deep-freeze.js';
import type { Query } from './ast.js';
import { parseQuery } from './build-ast.js';

/** Query texts whose trees are kept. */
const KEEP = 256;

const recent = new Map<string, Query>();

/**
 * The query a text parses to, kept for the last KEEP texts asked: an application sends the
 * same few queries with different parameters, and the grammar's parser takes milliseconds
 * each time. The tree is frozen, since every later run shares it; a refusal is not kept.
 */
export function parsed(text: string): Query {
  let query = recent.get(text);
  if (query !== undefined) {
    // Most recently used last, so the first key is the one to drop.
    recent.delete(text);
  } else {
    query = deepFreeze(parseQuery(text));
    if (recent.size >= KEEP) recent.delete(recent.keys().next().value!);
  }
  recent.set(text, query);
  return query;
}
