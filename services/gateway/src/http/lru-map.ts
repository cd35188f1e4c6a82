/**
 * A map kept in least-recently-used order within a count and a byte budget: setting a
 * key puts it at the young end and evicts from the old end until both fit. What an entry
 * weighs is the caller's measure (`weigh`), taken when it is set.
 */
export class LruMap<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** What the entries weigh together. */
  get bytes(): number {
    return this.total;
  }

  /** The value, without changing its place (see `touch`). */
  get(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Stores `value` at the young end, evicting the least recently used entries until it fits. */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.weigh(value);
    for (const old of this.map.keys()) {
      if (this.map.size < this.maxEntries && this.total + bytes <= this.maxBytes) break;
      this.delete(old);
    }
    this.map.set(key, { value, bytes });
    this.total += bytes;
  }

  /** Moves `key` to the young end. */
  touch(key: string): void {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.map.delete(key);
    this.map.set(key, e);
  }

  delete(key: string): boolean {
    const e = this.map.get(key);
    if (e === undefined) return false;
    this.map.delete(key);
    this.total -= e.bytes;
    return true;
  }

  *entries(): IterableIterator<[string, V]> {
    for (const [key, e] of this.map) yield [key, e.value];
  }
}
