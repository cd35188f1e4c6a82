/** Freezes a JSON-like value and everything inside it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      const v = o[k];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
    Object.freeze(o);
  }
  return value;
}
