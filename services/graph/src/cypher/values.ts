import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import type { GraphReadView } from '../store/read-view.js';
import { CONTACT_PROPERTIES, labelOf, propertiesOf } from './schema.js';

/**
 * Cypher values as the executor holds them: null, booleans, numbers, strings, lists, maps,
 * and the graph's nodes and relationships (by reference to their documents). Equality,
 * comparison and ordering follow openCypher: comparing with null is null, values of
 * different types are not comparable, and ORDER BY puts nulls last.
 */
export class NodeValue {
  /**
   * `view` and `id`: where the evaluator matched the node (store/read-view.ts), so its
   * scope properties are read from the view's columns instead of the document: a query
   * grouping 200,000 candidacies by state then never touches their documents.
   */
  constructor(
    readonly doc: NodeDoc,
    readonly view?: GraphReadView,
    readonly id = -1,
  ) {}
}

export class RelValue {
  constructor(readonly edge: EdgeDoc) {}
}

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value } | NodeValue | RelValue;

export function isMap(v: Value): v is { [key: string]: Value } {
  return (
    v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof NodeValue) && !(v instanceof RelValue)
  );
}

/** `a = b`: true, false, or null when either side is (or holds) null. */
export function equals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  if (a instanceof NodeValue || b instanceof NodeValue)
    return a instanceof NodeValue && b instanceof NodeValue && a.doc.slug === b.doc.slug;
  if (a instanceof RelValue || b instanceof RelValue)
    return a instanceof RelValue && b instanceof RelValue && relKey(a.edge) === relKey(b.edge);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    let unknown = false;
    for (let i = 0; i < a.length; i++) {
      const e = equals(a[i]!, b[i]!);
      if (e === false) return false;
      if (e === null) unknown = true;
    }
    return unknown ? null : true;
  }
  if (isMap(a) || isMap(b)) {
    if (!isMap(a) || !isMap(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length || !keys.every((k) => Object.hasOwn(b, k))) return false;
    return equals(
      keys.map((k) => a[k]!),
      keys.map((k) => b[k]!),
    );
  }
  return a === b;
}

/** `a < b` and friends: the sign of the comparison, or null when the two are not comparable. */
export function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'number' && typeof b === 'number')
    return Number.isNaN(a) || Number.isNaN(b) ? null : Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compare(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
    return Math.sign(a.length - b.length);
  }
  return null;
}

/** Rank of a value's type in ORDER BY (openCypher's order of types); null sorts last. */
function typeRank(v: Value): number {
  if (isMap(v)) return 0;
  if (v instanceof NodeValue) return 1;
  if (v instanceof RelValue) return 2;
  if (Array.isArray(v)) return 3;
  if (typeof v === 'string') return 4;
  if (typeof v === 'boolean') return 5;
  if (typeof v === 'number') return 6;
  return 7;
}

/** The total order of ORDER BY: by type, then by value; nulls last ascending. */
export function orderCompare(a: Value, b: Value): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (a instanceof NodeValue && b instanceof NodeValue)
    return a.doc.slug < b.doc.slug ? -1 : a.doc.slug > b.doc.slug ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = orderCompare(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return compare(a, b) ?? 0;
}

function relKey(e: EdgeDoc): string {
  return `${e.kind}|${e.from}|${e.to}|${e.key}`;
}

/** A value as a string that two equal values (DISTINCT, grouping) share. */
export function valueKey(v: Value): string {
  if (v instanceof NodeValue) return `N${v.doc.slug}`;
  if (v instanceof RelValue) return `R${relKey(v.edge)}`;
  if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
  if (isMap(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${valueKey(v[k]!)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * A value as the answer holds it (JSON). A node is a map of its label and every property
 * the key may see: contact properties only with `contact`. A relationship is its type,
 * ends and data.
 */
export function toOutput(v: Value, contact: boolean): unknown {
  if (v instanceof NodeValue) {
    const out: Record<string, unknown> = { _label: labelOf(v.doc.kind) };
    for (const [name, spec] of Object.entries(propertiesOf(v.doc.kind))) {
      if (!contact && CONTACT_PROPERTIES.has(name)) continue;
      out[name] = spec.read(v.doc);
    }
    return out;
  }
  if (v instanceof RelValue) return { _type: v.edge.kind, _from: v.edge.from, _to: v.edge.to, ...v.edge.data };
  if (Array.isArray(v)) return v.map((x) => toOutput(x, contact));
  if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toOutput(x, contact)]));
  return v;
}

/** A plain JSON value (a parameter, a stored property) as a Cypher value. */
export function fromJson(v: unknown): Value {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromJson(x)]));
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  return null;
}
