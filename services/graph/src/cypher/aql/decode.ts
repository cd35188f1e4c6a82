import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { EDGE_FIELDS, NODE_FIELDS } from '../../store/arango/arango-documents.js';
import { fromJson, NodeValue, RelValue, type Value } from '../values.js';

/**
 * A value of a compiled query's answer as the executor's values (values.ts), so the answer
 * is shaped by the same `toOutput` as the evaluator's: a node is a document with `_id` and
 * no `_from`, a relationship one with `_from` (caller maps cannot carry those keys:
 * expression.ts refuses them), each read back to the model's fields only.
 */
export function decodeValue(v: unknown): Value {
  if (Array.isArray(v)) return v.map(decodeValue);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o._id === 'string' && typeof o._from === 'string')
      return new RelValue(pick(o, EDGE_FIELDS) as unknown as EdgeDoc);
    if (typeof o._id === 'string') return new NodeValue(pick(o, NODE_FIELDS) as unknown as NodeDoc);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, decodeValue(x)]));
  }
  return fromJson(v);
}

function pick(o: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, o[f]]));
}
