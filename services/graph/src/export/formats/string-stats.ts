import type { Statistics } from 'hyparquet';

/** A character at or above U+D800: where UTF-16 order and UTF-8 byte order can part. */
const HIGH = /[\ud800-\uffff]/;

/**
 * The min/max statistics of a Parquet string column's chunk, in UTF-8 byte order (code point
 * order) as the format requires, as hyparquet-writer computes them, faster. Its comparison walks
 * both strings one code point at a time in JavaScript, twice per value; on slugs sharing long
 * prefixes that was 6 % of a whole-graph export. JavaScript's `<` compares UTF-16 code units
 * natively, which is the same order unless a surrogate (U+D800–DFFF) meets a unit in
 * U+E000–FFFF: only values holding a unit of U+D800 or above take the exact walk.
 */
export class StringStats {
  private min: string | undefined;
  private max: string | undefined;
  private minHigh = false;
  private maxHigh = false;
  private nulls = 0;

  observe(value: string | null): void {
    if (value === null) {
      this.nulls++;
      return;
    }
    if (this.min === undefined || this.max === undefined) {
      const high = HIGH.test(value);
      [this.min, this.max, this.minHigh, this.maxHigh] = [value, value, high, high];
      return;
    }
    const high = HIGH.test(value);
    if (high || this.minHigh ? compareCodePoints(value, this.min) < 0 : value < this.min) {
      [this.min, this.minHigh] = [value, high];
    }
    if (high || this.maxHigh ? compareCodePoints(value, this.max) > 0 : value > this.max) {
      [this.max, this.maxHigh] = [value, high];
    }
  }

  /** The chunk's statistics as hyparquet-writer records them (its `getStatistics`), then starts over. */
  take(): Statistics {
    const stats: Statistics = {
      min_value: this.min,
      max_value: this.max,
      null_count: BigInt(this.nulls),
    };
    this.min = this.max = undefined;
    this.nulls = 0;
    return stats;
  }
}

/**
 * Code point order (UTF-8 byte order); a lone surrogate compares as U+FFFD, as TextEncoder
 * writes it. The order of hyparquet-writer's `compareStrings`.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  const length = Math.min(a.length, b.length);
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // A difference in the low half of a surrogate pair is decided by the whole pair.
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) i--;
  while (i < a.length && i < b.length) {
    const x = codePoint(a, i);
    const y = codePoint(b, i);
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

function codePoint(s: string, i: number): number {
  const code = s.codePointAt(i)!;
  return code >= 0xd800 && code <= 0xdfff ? 0xfffd : code;
}
