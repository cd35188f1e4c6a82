/**
 * Whether two engines gave the same answer to a query: the same rows as a multiset, or as
 * a sequence when the query orders its rows totally. Numbers agree within a relative 1e-9
 * (two engines may add floats in different orders); integers and floats of equal value
 * agree (JSON does not tell them apart). Lists built by collect() have no order, so they
 * may be compared as multisets too.
 */
export interface Comparison {
  /** The rows' order is part of the answer (ORDER BY over a total order). */
  ordered: boolean;
  /** Lists inside the rows are compared as multisets (the query collects). */
  unorderedLists: boolean;
}

const RELATIVE = 1e-9;

/** undefined when the answers agree, else what differs first. */
export function difference(expected: unknown[][], actual: unknown[][], how: Comparison): string | undefined {
  if (expected.length !== actual.length) return `${expected.length} rows expected, ${actual.length} given`;
  const [a, b] = [expected, actual].map((rows) => {
    const normal = rows.map((r) => normalise(r, how.unorderedLists) as unknown[]);
    return how.ordered ? normal : sortByKey(normal);
  });
  for (let i = 0; i < a!.length; i++) {
    if (!close(a![i], b![i]))
      return `row ${i}${how.ordered ? '' : ' (sorted)'}: ${JSON.stringify(a![i])} expected, ${JSON.stringify(b![i])} given`;
  }
  return undefined;
}

/** A value with its collected lists sorted, so equal multisets look the same. */
function normalise(v: unknown, sortLists: boolean): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => normalise(x, sortLists));
    return sortLists ? sortByKey(items) : items;
  }
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([k, x]) => [k, normalise(x, sortLists)]),
    );
  return v;
}

/** Sorts by a canonical text in which numbers are rounded well past the tolerance's digits. */
function sortByKey<T>(items: T[]): T[] {
  const keyed = items.map((item) => ({ item, key: JSON.stringify(item, roundNumbers) }));
  keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return keyed.map((k) => k.item);
}

function roundNumbers(_key: string, v: unknown): unknown {
  return typeof v === 'number' ? Number(v.toPrecision(8)) : v;
}

function close(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return a === b || Math.abs(a - b) <= RELATIVE * Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => close(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k, i) => k === kb[i] && close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}
