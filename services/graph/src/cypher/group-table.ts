import { NodeValue, valueKey, type Value } from './values.js';

/**
 * Groups by a tuple of values, in order of first appearance, without building a key
 * string per row: one level of maps per value of the tuple. Two tuples share a group
 * exactly when their values' `valueKey`s do (values.ts, what DISTINCT compares): a
 * string, a finite number or a boolean is its own key; null, NaN and the infinities
 * share one (valueKey writes them all `null`); a node is its slug; any other value
 * (a relationship, a list, a map) its valueKey, in a map of its own.
 */
export class GroupTable<G> {
  private readonly root = new Level();
  readonly groups: G[] = [];

  /** The group of `values` (length: the table's arity, the same on every call), made by `make(arg)` the first time. */
  find<A>(values: readonly Value[], make: (arg: A) => G, arg: A): G {
    const last = values.length - 1;
    if (last < 0) {
      if (this.groups.length === 0) this.groups.push(make(arg));
      return this.groups[0]!;
    }
    let level = this.root;
    for (let i = 0; i < last; i++) {
      let next = level.get(values[i]!) as Level | undefined;
      if (next === undefined) level.set(values[i]!, (next = new Level()));
      level = next;
    }
    let group = level.get(values[last]!) as G | undefined;
    if (group === undefined) {
      level.set(values[last]!, (group = make(arg)));
      this.groups.push(group);
    }
    return group;
  }
}

/** One value of the tuple: what it leads to (the next level, or the group), by its key. */
class Level {
  private readonly plain = new Map<unknown, unknown>();
  private nodes: Map<string, unknown> | undefined;
  private others: Map<string, unknown> | undefined;

  get(v: Value): unknown {
    if (typeof v === 'object' && v !== null) {
      return v instanceof NodeValue ? this.nodes?.get(v.doc.slug) : this.others?.get(valueKey(v));
    }
    return this.plain.get(plainKey(v));
  }

  set(v: Value, to: unknown): void {
    if (typeof v === 'object' && v !== null) {
      if (v instanceof NodeValue) (this.nodes ??= new Map()).set(v.doc.slug, to);
      else (this.others ??= new Map()).set(valueKey(v), to);
    } else this.plain.set(plainKey(v), to);
  }
}

function plainKey(v: string | number | boolean | null): string | number | boolean | null {
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}
