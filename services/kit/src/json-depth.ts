import { InvalidParameterError } from './errors.js';

/**
 * Refuses a JSON value nested deeper than `max` (arrays and objects), naming the field:
 * whatever later walks it recursively (protobuf's Struct, a query's evaluator) would
 * exhaust the stack. Walks iteratively, so the check itself cannot.
 */
export function assertJsonDepth(value: unknown, max: number, field: string): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) throw new InvalidParameterError(field, `${field} is nested more than ${max} levels deep.`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
}
