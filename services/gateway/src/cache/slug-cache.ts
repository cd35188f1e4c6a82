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
 * Entries stored with the same `group` show the same slugs (every point's ballot of one
 * set of districts, say: some 300 slugs each), so the slugs are indexed once for the
 * group, not once per entry, and an event naming one of them drops the whole group.
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

  /**
   * Stores `value` under `key` unless an invalidation happened since `generation`. With a
   * `group`, `slugs` must be the group's: the first entry's slugs index them all.
   */
  set(key: string, value: V, slugs: readonly string[], generation: number, group?: string): void {
    if (generation !== this.generation) return;
    this.drop(key);
    const bytes = this.budget?.bytesOf(value) ?? 0;
    if (this.budget !== undefined && bytes > this.budget.maxBytes / 10) return;
    const maxBytes = this.budget?.maxBytes ?? Infinity;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.totalBytes + bytes > maxBytes)) {
      this.drop(this.entries.keys().next().value!);
    }
    const g = this.groupFor(group ?? `\0${key}`, slugs);
    g.keys.add(key);
    this.entries.set(key, { value, group: g, expires: this.now() + this.ttlMs, bytes });
    this.totalBytes += bytes;
  }

  /**
   * Weighs `key`'s entry again after its value grew (a rendering memoised on it), evicting
   * the least recently used others while the budget is exceeded; an entry grown past a
   * tenth of the budget is dropped itself.
   */
  reweigh(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined || this.budget === undefined) return;
    const bytes = this.budget.bytesOf(e.value);
    this.totalBytes += bytes - e.bytes;
    e.bytes = bytes;
    if (bytes > this.budget.maxBytes / 10) return void this.drop(key);
    for (const other of this.entries.keys()) {
      if (this.totalBytes <= this.budget.maxBytes) break;
      if (other !== key) this.drop(other);
    }
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

  private groupFor(id: string, slugs: readonly string[]): Group {
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
