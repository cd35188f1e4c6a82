/**
 * A sorted set of strings kept as a list of small sorted blocks (a one-level B+tree).
 * Inserting or deleting touches one block of at most MAX_BLOCK keys, so building a
 * 200,000-key set one key at a time stays O(n log n), and iterating from any key is a
 * binary search away; a plain sorted array would move half the array on every insert.
 * Keys compare by UTF-16 code units (`<`), the same order as keyset cursors.
 */
const MAX_BLOCK = 256;

/** What a query needs of a set of keys: how many, and the keys after one, ascending. */
export interface KeySet {
  readonly size: number;
  from(after?: string): Iterable<string>;
}

/** A one-key set, made on demand: most postings (a candidacy's person) hold one key, kept as a bare string. */
export function singleKey(key: string): KeySet {
  return { size: 1, from: (after) => (after === undefined || key > after ? [key] : []) };
}

export class SortedKeys implements KeySet {
  private blocks: string[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `key`; false when it was already present. */
  add(key: string): boolean {
    const tail = this.blocks[this.blocks.length - 1];
    if (tail === undefined || key > (tail[tail.length - 1] as string)) return this.append(key, tail);
    const b = this.blockFor(key);
    const block = this.blocks[b] as string[];
    const i = lowerBound(block, key);
    if (block[i] === key) return false;
    block.splice(i, 0, key);
    this.count++;
    if (block.length > MAX_BLOCK) this.blocks.splice(b + 1, 0, block.splice(MAX_BLOCK >> 1));
    return true;
  }

  /** Adds a key above every key held (the common case when loading in order): no search. */
  private append(key: string, tail: string[] | undefined): true {
    if (tail === undefined || tail.length >= MAX_BLOCK) this.blocks.push([key]);
    else tail.push(key);
    this.count++;
    return true;
  }

  /** Removes `key`; false when it was absent. */
  delete(key: string): boolean {
    if (this.blocks.length === 0) return false;
    const b = this.blockFor(key);
    const block = this.blocks[b] as string[];
    const i = lowerBound(block, key);
    if (block[i] !== key) return false;
    block.splice(i, 1);
    this.count--;
    if (block.length === 0) this.blocks.splice(b, 1);
    return true;
  }

  has(key: string): boolean {
    if (this.blocks.length === 0) return false;
    const block = this.blocks[this.blockFor(key)] as string[];
    return block[lowerBound(block, key)] === key;
  }

  /** Keys greater than `after` (or all, when undefined), ascending. */
  *from(after?: string): Generator<string> {
    let b = after === undefined ? 0 : this.blockFor(after);
    let i = after === undefined ? 0 : upperBound(this.blocks[b] ?? [], after);
    for (; b < this.blocks.length; b++, i = 0) {
      const block = this.blocks[b] as string[];
      for (; i < block.length; i++) yield block[i] as string;
    }
  }

  /**
   * How many keys lie in [lo, hi], counted in whole blocks: exact enough to compare the
   * selectivity of candidate sets without walking them.
   */
  estimateRange(lo: string, hi: string): number {
    if (this.blocks.length === 0) return 0;
    const first = this.blockFor(lo);
    const firstBlock = this.blocks[first] as string[];
    if ((firstBlock[firstBlock.length - 1] as string) < lo) return 0;
    let n = 0;
    for (let b = first; b < this.blocks.length; b++) {
      const block = this.blocks[b] as string[];
      if ((block[0] as string) > hi) break;
      n += block.length;
    }
    return n;
  }

  /** Index of the first block whose last key is ≥ `key` (the last block when none is). */
  private blockFor(key: string): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const block = this.blocks[mid] as string[];
      if ((block[block.length - 1] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** First index whose key is ≥ `key`. */
function lowerBound(a: readonly string[], key: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is > `key`. */
function upperBound(a: readonly string[], key: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] as string) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
