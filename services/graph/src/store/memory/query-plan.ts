import type { NodeQuery, NodeScan } from '../graph-store.js';
import { STATE, TIER, type KindIndex } from './kind-index.js';
import type { KeySet, SortedKeys } from './sorted-keys.js';

/**
 * Candidate sets for a query, and the choice of the smallest. Every condition a query
 * names that has an index (a match field, the states, the tiers, a date range) offers a
 * candidate set; the planner takes the smallest, and the caller filters it with the whole
 * query. A source that comes in the query's order is walked lazily from the cursor and
 * stops after one page; any other is collected, filtered and sorted.
 */
export interface Source {
  /** How many candidates it yields at most (estimated in whole blocks for date ranges). */
  size: number;
  /** The order its keys come in: slugs, or date keys (`date \0 slug`). */
  order: 'slug' | 'date';
  /** Its keys after `after` (a key of the same order), ascending. */
  keys(after?: string): Iterable<string>;
}

/** Below this many candidates, a date index is not built just to compare with them. */
const SMALL = 1000;

/** The cheapest source, or undefined when some condition can match nothing at all. */
export function plan(
  ki: KindIndex,
  q: NodeScan & Partial<Pick<NodeQuery, 'order' | 'after' | 'limit'>>,
): Source | undefined {
  const order = q.order ?? 'slug';
  const sources: Source[] = [];
  for (const [field, values] of Object.entries(q.match ?? {})) {
    if (values === undefined) continue;
    const sets = postings(ki, field, values);
    if (sets.length === 0) return undefined;
    sources.push(union(sets));
  }
  if (q.states !== undefined && q.states.length > 0) sources.push(union(postings(ki, STATE, q.states)));
  if (q.tiers !== undefined && q.tiers.length > 0) sources.push(union(postings(ki, TIER, [...q.tiers, ''])));
  const smallest = Math.min(...sources.map((s) => s.size));
  if ((q.dateFrom !== undefined || q.dateTo !== undefined) && (ki.hasDateOrder || smallest > SMALL)) {
    sources.push(dateRange(ki.dateOrder(), q.dateFrom, q.dateTo));
  }
  sources.push(
    order === 'date' ? { size: ki.slugs.size, order: 'date', keys: (a) => ki.dateOrder().from(a) } : all(ki.slugs),
  );
  return sources.reduce((best, s) =>
    s.size < best.size || (s.size === best.size && s.order === order && best.order !== order) ? s : best,
  );
}

/** The slug in a source key. */
export function slugOfKey(key: string, order: 'slug' | 'date'): string {
  return order === 'slug' ? key : key.slice(key.indexOf('\u0000') + 1);
}

function postings(ki: KindIndex, field: string, values: readonly string[]): KeySet[] {
  const sets: KeySet[] = [];
  for (const v of new Set(values)) {
    const set = ki.posting(field, v);
    if (set !== undefined) sets.push(set);
  }
  return sets;
}

function all(set: KeySet): Source {
  return { size: set.size, order: 'slug', keys: (after) => set.from(after) };
}

function union(sets: KeySet[]): Source {
  if (sets.length === 1) return all(sets[0] as KeySet);
  return {
    size: sets.reduce((n, s) => n + s.size, 0),
    order: 'slug',
    keys: (after) => mergeAscending(sets.map((s) => s.from(after)[Symbol.iterator]())),
  };
}

function dateRange(byDate: SortedKeys, from: string | undefined, to: string | undefined): Source {
  // Keys are `date \0 slug`: every key of a day sorts after the bare day and before day + \u0001.
  const hi = to === undefined ? undefined : `${to}\u0001`;
  return {
    size: byDate.estimateRange(from ?? '', hi ?? '\uffff'),
    order: 'date',
    *keys(after) {
      const start = from !== undefined && (after === undefined || after < from) ? from : after;
      for (const key of byDate.from(start)) {
        if (hi !== undefined && key > hi) return;
        yield key;
      }
    },
  };
}

/** Merges ascending key streams into one, dropping repeats. */
function* mergeAscending(streams: Iterator<string>[]): Generator<string> {
  const heads: (string | undefined)[] = streams.map((s) => next(s));
  let last: string | undefined;
  for (;;) {
    let min = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h !== undefined && (min < 0 || h < (heads[min] as string))) min = i;
    }
    if (min < 0) return;
    const key = heads[min] as string;
    heads[min] = next(streams[min] as Iterator<string>);
    if (key !== last) yield key;
    last = key;
  }
}

function next(it: Iterator<string>): string | undefined {
  const r = it.next();
  return r.done === true ? undefined : r.value;
}
