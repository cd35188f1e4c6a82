import { containsPoint, type PreparedGeometry } from '../point-in-polygon.js';

const BLOCKS_X = 360;
const BLOCKS_Y = 180;

/**
 * The regions' bounding boxes bucketed by 1° block, so the regions whose box holds a
 * point — the only ones that can contain it — are found without scanning all of them.
 */
export class RegionBoxes {
  private readonly starts: Uint32Array;
  private readonly ids: Uint32Array;

  constructor(private readonly prepared: readonly PreparedGeometry[]) {
    const counts = new Uint32Array(BLOCKS_X * BLOCKS_Y + 1);
    this.eachBlock((b) => (counts[b + 1] = counts[b + 1]! + 1));
    for (let b = 0; b < BLOCKS_X * BLOCKS_Y; b += 1) counts[b + 1] = counts[b + 1]! + counts[b]!;
    this.starts = counts;
    this.ids = new Uint32Array(counts[BLOCKS_X * BLOCKS_Y]!);
    const next = counts.slice(0, -1);
    this.eachBlock((b, id) => (this.ids[next[b]!++] = id));
  }

  /** Calls `fn(block, id)` for every block each region's box overlaps, regions in id order. */
  private eachBlock(fn: (block: number, id: number) => void): void {
    this.prepared.forEach((g, id) => {
      if (!(g.minX <= g.maxX && g.minY <= g.maxY)) return;
      const [i0, i1] = [blockOf(g.minX, 180, BLOCKS_X), blockOf(g.maxX, 180, BLOCKS_X)];
      const [j0, j1] = [blockOf(g.minY, 90, BLOCKS_Y), blockOf(g.maxY, 90, BLOCKS_Y)];
      for (let j = j0; j <= j1; j += 1) for (let i = i0; i <= i1; i += 1) fn(j * BLOCKS_X + i, id);
    });
  }

  /** Bytes held by the buckets. */
  get byteLength(): number {
    return this.starts.byteLength + this.ids.byteLength;
  }

  /**
   * Appends, ascending, the ids of the regions containing the point by `containsPoint`:
   * the brute force, over the regions whose box can hold the point. (Floor is monotone,
   * so a point in a box lands in one of the blocks the box was listed in.)
   */
  containing(x: number, y: number, out: number[]): void {
    const b = blockOf(y, 90, BLOCKS_Y) * BLOCKS_X + blockOf(x, 180, BLOCKS_X);
    for (let k = this.starts[b]!; k < this.starts[b + 1]!; k += 1) {
      const id = this.ids[k]!;
      if (containsPoint(this.prepared[id]!, x, y)) out.push(id);
    }
  }
}

function blockOf(v: number, offset: number, count: number): number {
  const b = Math.floor(v + offset);
  return b < 0 ? 0 : b >= count ? count - 1 : b;
}
