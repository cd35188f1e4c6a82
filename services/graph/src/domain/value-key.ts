import type { FieldValue } from '../model/nodes.js';

/**
 * A canonical string for a field value, so that claims which say the same thing group
 * together: lists are sets (the same emails in another order, or repeated, are the same
 * claim), and record keys are sorted. Strings are compared exactly.
 */
export function valueKey(value: FieldValue | unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const members = new Map(value.map((v) => [JSON.stringify(canonical(v)), canonical(v)]));
    return [...members.keys()].sort().map((k) => members.get(k));
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .filter((k) => o[k] !== undefined)
        .map((k) => [k, canonical(o[k])]),
    );
  }
  return value;
}
