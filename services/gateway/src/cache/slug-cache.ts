import { LRUCache } from 'lru-cache';

/** Entries that show the same slugs, indexed once for all of them. */
interface Group {
  readonly id: string;
  readonly slugs: readonly string[];
  readonly keys: Set<string>;
}

interface Entry<V> {
  value: V;
  group: Group;
  expires: number;
}

/**
 * What indexing one slug costs, counted against a byte budget beside the values: the slug
 * in its group's key and in the index's sets. Charged to the entry that creates a group;
 * an entry joining a group costs GROUP_MEMBER_BYTES. (When the creating entry goes first,
 * its group's charge goes with it while the group lives on: the count runs a little low
 * then, never unbounded, as a group lives only as long as one of its entries.)
 */
const SLUG_INDEX_BYTES = 80;
const GROUP_MEMBER_BYTES = 64;

/** A byte budget: what an entry weighs, and the most all entries may weigh together. */
export interface ByteBudget<V> {
  maxBytes: number;
  bytesOf: (value: V) => number;
}

/**
 * A bounded cache whose entries are indexed by the slugs they contain, so a data-change
 * event drops exactly the entries it names. A generation counter keeps a value computed
 * before an invalidation from being stored after it: take `mark()` before asking
 * upstream, pass it to `set`. Entries older than `ttlMs` are not served (the fallback
 * when events stop arriving). It holds at most `maxEntries` entries and, with a `budget`,
 * at most `budget.maxBytes` bytes (an entry heavier than a tenth of it is not kept); when
 * full, the least recently used entries go first (lru-cache keeps that order).
 *
 * Entries that show the same slugs (every point's ballot of one set of districts, say:
 * some 300 slugs each) form a group whose slugs are indexed once, not once per entry; an
 * event naming one of them drops the whole group.
 */
export class SlugCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly budget: ByteBudget<V> | undefined;
  private readonly groups = new Map<string, Group>();
  private readonly bySlug = new Map<string, Set<Group>>();
  private generation = 0;

  constructor(
    maxEntries: number,
    private readonly ttlMs = Infinity,
    private readonly now: () => number = Date.now,
    budget?: ByteBudget<V>,
  ) {
    this.budget = budget;
    this.entries = new LRUCache<string, Entry<V>>({
      max: maxEntries,
      ...(budget === undefined
        ? {}
        : {
            maxSize: budget.maxBytes,
            maxEntrySize: Math.floor(budget.maxBytes / 10),
          }),
      // Whatever takes an entry out (eviction, replacement, deletion) takes it out of its group.
      dispose: (e, key) => this.leave(e.group, key),
    });
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the entries weigh together, by the budget's measure (0 without one). */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** Distinct slugs the index holds (what the index costs; it shrinks as groups go). */
  get indexedSlugs(): number {
    return this.bySlug.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Current generation; pass it back to `set` so stale answers are not stored. */
  mark(): number {
    return this.generation;
  }

  /** Stores `value` under `key`, indexed by `slugs`, unless an invalidation happened since `generation`. */
  set(key: string, value: V, slugs: readonly string[], generation: number): void {
    if (generation !== this.generation) return;
    this.entries.delete(key);
    const group = this.groupFor(slugs);
    const index = group.keys.size === 0 ? SLUG_INDEX_BYTES * slugs.length : GROUP_MEMBER_BYTES;
    group.keys.add(key);
    const size = this.budget === undefined ? undefined : this.budget.bytesOf(value) + index;
    this.entries.set(key, { value, group, expires: this.now() + this.ttlMs }, size === undefined ? {} : { size });
    // Refused (heavier than a tenth of the budget): lru-cache stored nothing and disposed of nothing.
    if (!this.entries.has(key)) this.leave(group, key);
  }

  /** Drops every entry naming one of `slugs`; returns how many were dropped. */
  invalidateSlugs(slugs: readonly string[]): number {
    this.generation += 1;
    let dropped = 0;
    for (const slug of slugs) {
      for (const group of this.bySlug.get(slug) ?? []) {
        for (const key of [...group.keys]) dropped += this.entries.delete(key) ? 1 : 0;
      }
    }
    return dropped;
  }

  /** Drops everything. */
  clear(): number {
    this.generation += 1;
    const n = this.entries.size;
    this.entries.clear();
    this.groups.clear();
    this.bySlug.clear();
    return n;
  }

  private groupFor(slugs: readonly string[]): Group {
    const id = [...slugs].sort().join('\n');
    let g = this.groups.get(id);
    if (g !== undefined) return g;
    g = { id, slugs, keys: new Set() };
    this.groups.set(id, g);
    for (const slug of slugs) {
      let groups = this.bySlug.get(slug);
      if (groups === undefined) this.bySlug.set(slug, (groups = new Set()));
      groups.add(g);
    }
    return g;
  }

  /** `key` leaves its group; the group's slugs leave the index with its last entry. */
  private leave(g: Group, key: string): void {
    g.keys.delete(key);
    if (g.keys.size > 0) return;
    this.groups.delete(g.id);
    for (const slug of g.slugs) {
      const groups = this.bySlug.get(slug);
      groups?.delete(g);
      if (groups?.size === 0) this.bySlug.delete(slug);
    }
  }
}
