import { indexKeys, type IndexKeys } from '../../model/index-keys.js';
import type { NodeDoc } from '../../model/nodes.js';
import { singleKey, SortedKeys, type KeySet } from './sorted-keys.js';

/** A node as the index holds it: the (frozen) document and what it is indexed under. */
export interface Entry {
  node: NodeDoc;
  keys: IndexKeys;
  /** The node's id in the index's read view (read-layout.ts), set when one is built; meaningless once the index changes. */
  id: number;
}

/** Posting fields besides the `indexKeys` match fields: the two scope attributes. */
export const STATE = '$state';
export const TIER = '$tier';

/** The date-order sort key of an entry (model/index-keys.ts `sortKey`, without recomputing the keys). */
export const dateKey = (e: Entry): string => `${e.keys.date ?? ''}\u0000${e.node.slug}`;

/**
 * The indexes of one node kind: every slug in order, a posting set per (attribute, value)
 * for the indexed match fields and the scope attributes, and — built on first use, since
 * most kinds are never listed by date — the date order.
 */
export class KindIndex {
  readonly slugs = new SortedKeys();
  /** Per attribute, per value: the slugs, a bare string while there is only one (most persons, people). */
  private readonly postings = new Map<string, Map<string, SortedKeys | string>>();
  private byDate: SortedKeys | undefined;
  /** Posting memberships held, for the memory estimate. */
  postingRefs = 0;

  constructor(private readonly entries: ReadonlyMap<string, Entry>) {}

  add(e: Entry): void {
    const slug = e.node.slug;
    this.slugs.add(slug);
    forEachPosting(e, (field, value) => {
      if (this.addPosting(field, value, slug)) this.postingRefs++;
    });
    this.byDate?.add(dateKey(e));
  }

  remove(e: Entry): void {
    const slug = e.node.slug;
    this.slugs.delete(slug);
    forEachPosting(e, (field, value) => {
      if (this.removePosting(field, value, slug)) this.postingRefs--;
    });
    this.byDate?.delete(dateKey(e));
  }

  /** The slugs whose `field` is `value` (empty set when none). */
  posting(field: string, value: string): KeySet | undefined {
    const set = this.postings.get(field)?.get(value);
    return typeof set === 'string' ? singleKey(set) : set;
  }

  /** Every node of the kind by date-order key (`date \0 slug`), built on first use. */
  dateOrder(): SortedKeys {
    if (this.byDate === undefined) {
      const keys = new SortedKeys();
      for (const slug of this.slugs.from()) keys.add(dateKey(this.entries.get(slug) as Entry));
      this.byDate = keys;
    }
    return this.byDate;
  }

  /** Whether the date order has been built (it then costs memory). */
  get hasDateOrder(): boolean {
    return this.byDate !== undefined;
  }

  private addPosting(field: string, value: string, slug: string): boolean {
    let byValue = this.postings.get(field);
    if (byValue === undefined) this.postings.set(field, (byValue = new Map()));
    const set = byValue.get(value);
    if (set === undefined) {
      byValue.set(value, slug);
      return true;
    }
    if (typeof set !== 'string') return set.add(slug);
    if (set === slug) return false;
    const keys = new SortedKeys();
    keys.add(set);
    keys.add(slug);
    byValue.set(value, keys);
    return true;
  }

  private removePosting(field: string, value: string, slug: string): boolean {
    const byValue = this.postings.get(field);
    const set = byValue?.get(value);
    if (set === undefined || byValue === undefined) return false;
    if (typeof set === 'string') {
      if (set !== slug) return false;
      byValue.delete(value);
      return true;
    }
    if (!set.delete(slug)) return false;
    if (set.size === 0) byValue.delete(value);
    return true;
  }
}

/** Calls `f` with each (attribute, value) pair an entry is posted under. */
function forEachPosting(e: Entry, f: (field: string, value: string) => void): void {
  f(STATE, e.node.state);
  f(TIER, e.node.tier);
  const match = e.keys.match as Record<string, string | undefined>;
  for (const field in match) {
    const value = match[field];
    if (value !== undefined) f(field, value);
  }
}

export function entryOf(node: NodeDoc): Entry {
  return { node, keys: indexKeys(node), id: -1 };
}
