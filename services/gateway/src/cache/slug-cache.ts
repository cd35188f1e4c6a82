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
  bytes: number;
}

/**
 * What indexing one slug of an entry costs, counted against a byte budget beside the
 * value: the slug in its group's key and in the index's sets. Counted for every entry,
 * though entries of one group share it: the budget errs on the safe side.
 */
const SLUG_INDEX_BYTES = 80;

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
 * full, the least recently used entries go first.
 *
 * Entries that show the same slugs (every point's ballot of one set of districts, say:
 * some 300 slugs each) form a group whose slugs are indexed once, not once per entry; an
 * event naming one of them drops the whole group.
 */
export class SlugCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly groups = new Map<string, Group>();
  private readonly bySlug = new Map<string, Set<Group>>();
  private generation = 0;
  private totalBytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = Infinity,
    private readonly now: () => number = Date.now,
    private readonly budget?: ByteBudget<V>,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** What the entries weigh together, by the budget's measure (0 without one). */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Distinct slugs the index holds (what the index costs; it shrinks as groups go). */
  get indexedSlugs(): number {
    return this.bySlug.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.expires <= this.now()) {
      this.drop(key);
      return undefined;
    }
    // Used: to the young end of the eviction order.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Current generation; pass it back to `set` so stale answers are not stored. */
  mark(): number {
    return this.generation;
  }

  /** Stores `value` under `key`, indexed by `slugs`, unless an invalidation happened since `generation`. */
  set(key: string, value: V, slugs: readonly string[], generation: number): void {
    if (generation !== this.generation) return;
    this.drop(key);
    const bytes = this.budget === undefined ? 0 : this.budget.bytesOf(value) + SLUG_INDEX_BYTES * slugs.length;
    if (this.budget !== undefined && bytes > this.budget.maxBytes / 10) return;
    const maxBytes = this.budget?.maxBytes ?? Infinity;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.totalBytes + bytes > maxBytes)) {
      this.drop(this.entries.keys().next().value!);
    }
    const g = this.groupFor(slugs);
    g.keys.add(key);
    this.entries.set(key, { value, group: g, expires: this.now() + this.ttlMs, bytes });
    this.totalBytes += bytes;
  }

  /** Drops every entry naming one of `slugs`; returns how many were dropped. */
  invalidateSlugs(slugs: readonly string[]): number {
    this.generation += 1;
    let dropped = 0;
    for (const slug of slugs) {
      for (const group of this.bySlug.get(slug) ?? []) {
        for (const key of [...group.keys]) dropped += this.drop(key) ? 1 : 0;
      }
    }
    return dropped;
  }

  /** Drops everything. */
  clear(): number {
    this.generation += 1;
    const n = this.entries.size;
    this.totalBytes = 0;
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

  private drop(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    const g = entry.group;
    g.keys.delete(key);
    if (g.keys.size === 0) this.dropGroup(g);
    return true;
  }

  private dropGroup(g: Group): void {
    this.groups.delete(g.id);
    for (const slug of g.slugs) {
      const groups = this.bySlug.get(slug);
      groups?.delete(g);
      if (groups?.size === 0) this.bySlug.delete(slug);
    }
  }
}
