import { h3IndexToSplitLong, splitLongToH3Index } from 'h3-js';

/** An H3 index as h3-js's split long: `[low 32 bits, high 32 bits]`. */
export type SplitCell = readonly [number, number];

/** Parses an H3 index string once, for several `parentOf` calls. */
export function splitCell(cell: string): SplitCell {
  const [lo, hi] = h3IndexToSplitLong(cell);
  return [lo, hi];
}

const RES_SHIFT = 20; // the resolution field is bits 52–55 of the index, bits 20–23 of the high word
const RES_MASK = 0xf << RES_SHIFT;

/**
 * The ancestor of a cell at a coarser resolution, by bit arithmetic on the index (set the
 * resolution field, fill the finer digits with 7) — what h3's `cellToParent` does, without
 * a round trip into its WebAssembly module on every lookup.
 */
export function parentOf(cell: SplitCell, res: number): string {
  const unused = (15 - res) * 3; // digits res+1…15, 3 bits each, are set to 7 (binary 111)
  let [lo, hi] = cell;
  if (unused >= 32) {
    lo = 0xffffffff;
    hi = (hi | ((1 << (unused - 32)) - 1)) >>> 0;
  } else {
    lo = (lo | ((2 ** unused - 1) >>> 0)) >>> 0;
  }
  hi = ((hi & ~RES_MASK) | (res << RES_SHIFT)) >>> 0;
  return splitLongToH3Index(lo, hi);
}
