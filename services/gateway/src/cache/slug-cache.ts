/**
 * A bounded cache whose entries are indexed by the slugs they contain, so a data-change
 * event drops exactly the entries it names. A generation counter keeps a value computed
 * before an invalidation from being stored after it: take `mark()` before asking
 * upstream, pass it to `set`. Entries older than `ttlMs` are not served (the fallback
 * when events stop arriving); the oldest entry goes first when full.
 */
export class SlugCache<V> {
  private readonly entries = new Map<string, { value: V; slugs: readonly string[]; expires: number }>();
  private readonly bySlug = new Map<string, Set<string>>();
  private generation = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = Infinity,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.expires <= this.now()) {
      this.drop(key);
      return undefined;
    }
    return e.value;
  }

  /** Current generation; pass it back to `set` so stale answers are not stored. */
  mark(): number {
    return this.generation;
  }

  /** Stores `value` under `key` unless an invalidation happened since `generation`. */
  set(key: string, value: V, slugs: readonly string[], generation: number): void {
    if (generation !== this.generation) return;
    this.drop(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.drop(oldest.value);
    }
    this.entries.set(key, { value, slugs, expires: this.now() + this.ttlMs });
    for (const slug of slugs) {
      let keys = this.bySlug.get(slug);
      if (keys === undefined) this.bySlug.set(slug, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops every entry naming one of `slugs`; returns how many were dropped. */
  invalidateSlugs(slugs: readonly string[]): number {
    this.generation += 1;
    let dropped = 0;
    for (const slug of slugs) {
      for (const key of this.bySlug.get(slug) ?? []) dropped += this.drop(key) ? 1 : 0;
      this.bySlug.delete(slug);
    }
    return dropped;
  }

  /** Drops everything. */
  clear(): number {
    this.generation += 1;
    const n = this.entries.size;
    this.entries.clear();
    this.bySlug.clear();
    return n;
  }

  private drop(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    for (const slug of entry.slugs) {
      const keys = this.bySlug.get(slug);
      keys?.delete(key);
      if (keys?.size === 0) this.bySlug.delete(slug);
    }
    return true;
  }
}
