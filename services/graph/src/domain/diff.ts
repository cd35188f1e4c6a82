/**
 * Structural comparison of stored JSON: what decides "unchanged" (no write, no event) and
 * which fields an event names. Object key order never matters (a document read back from
 * a store may come in any order); array order does, since importers emit lists in a
 * stable order and a reordered list is a real edit.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const ka = definedKeys(a as Record<string, unknown>);
  const kb = definedKeys(b as Record<string, unknown>);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/** Keys whose values differ between two records (either side may lack a key), sorted. */
export function changedKeys(before: object, after: object): string[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const keys = new Set([...definedKeys(b), ...definedKeys(a)]);
  return [...keys].filter((k) => !deepEqual(b[k], a[k])).sort();
}

/** An undefined-valued key is the same as a missing one, as it is once stored as JSON. */
function definedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}
