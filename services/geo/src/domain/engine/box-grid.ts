import type { Box } from './local-parity.js';

/** At most this many buckets per box (and never fewer than 1,024 in all). */
const BUCKETS_PER_BOX = 4;

/**
 * A uniform grid of buckets over a set of boxes, each box listed in every bucket it
 * overlaps, so the boxes near a segment or a bounding box are found without scanning all.
 * Buckets are at least as large as the largest box, so a box sits in at most 2 × 2 buckets.
 */
export class BoxGrid {
  private readonly x0: number;
  private readonly y0: number;
  private readonly w: number;
  private readonly h: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly starts: Uint32Array;
  private readonly ids: Uint32Array;
  private readonly stamps: Uint32Array;
  private stamp = 0;

  constructor(private readonly boxes: readonly (Box | undefined)[]) {
    const e = extent(boxes);
    [this.x0, this.y0] = [e.x0, e.y0];
    let [w, h] = [Math.max(e.w, 1e-9), Math.max(e.h, 1e-9)];
    const limit = Math.max(1024, BUCKETS_PER_BOX * e.count);
    while ((Math.floor((e.x1 - e.x0) / w) + 1) * (Math.floor((e.y1 - e.y0) / h) + 1) > limit) [w, h] = [2 * w, 2 * h];
    [this.w, this.h] = [w, h];
    this.nx = e.count === 0 ? 0 : Math.floor((e.x1 - e.x0) / w) + 1;
    this.ny = e.count === 0 ? 0 : Math.floor((e.y1 - e.y0) / h) + 1;
    [this.starts, this.ids] = this.fill();
    this.stamps = new Uint32Array(boxes.length);
  }

  private fill(): [Uint32Array, Uint32Array] {
    const starts = new Uint32Array(this.nx * this.ny + 1);
    this.boxes.forEach((b) => this.eachBucket(b, (k) => (starts[k + 1] = starts[k + 1]! + 1)));
    for (let k = 0; k + 1 < starts.length; k += 1) starts[k + 1] = starts[k + 1]! + starts[k]!;
    const ids = new Uint32Array(starts[starts.length - 1]!);
    const next = starts.slice(0, -1);
    this.boxes.forEach((b, id) => this.eachBucket(b, (k) => (ids[next[k]!++] = id)));
    return [starts, ids];
  }

  private eachBucket(b: Box | undefined, fn: (bucket: number) => void): void {
    if (b === undefined) return;
    const [i0, i1] = this.range(b.x0, b.x1, this.x0, this.w, this.nx, 0);
    const [j0, j1] = this.range(b.y0, b.y1, this.y0, this.h, this.ny, 0);
    for (let j = j0; j <= j1; j += 1) for (let i = i0; i <= i1; i += 1) fn(j * this.nx + i);
  }

  /**
   * Bucket indices covering [lo, hi] widened by `pad` buckets, clamped (empty when outside
   * the grid). Float subtraction and division are monotone, so a query range overlapping a
   * box always shares a bucket with it; the query's padding is a margin on top of that.
   */
  private range(lo: number, hi: number, origin: number, size: number, n: number, pad: number): [number, number] {
    return [
      Math.max(0, Math.floor((lo - origin) / size) - pad),
      Math.min(n - 1, Math.floor((hi - origin) / size) + pad),
    ];
  }

  /**
   * Calls `fn` once for each box sharing a bucket with [minX, maxX] × [minY, maxY]: a
   * superset of the boxes overlapping it, which the caller tests exactly.
   */
  near(minX: number, minY: number, maxX: number, maxY: number, fn: (id: number) => void): void {
    this.stamp += 1;
    const [i0, i1] = this.range(minX, maxX, this.x0, this.w, this.nx, 1);
    const [j0, j1] = this.range(minY, maxY, this.y0, this.h, this.ny, 1);
    for (let j = j0; j <= j1; j += 1) {
      for (let i = i0; i <= i1; i += 1) {
        const k = j * this.nx + i;
        for (let p = this.starts[k]!; p < this.starts[k + 1]!; p += 1) {
          const id = this.ids[p]!;
          if (this.stamps[id] === this.stamp) continue;
          this.stamps[id] = this.stamp;
          fn(id);
        }
      }
    }
  }
}

/** The boxes' joint extent, their largest width and height, and how many there are. */
function extent(boxes: readonly (Box | undefined)[]) {
  const e = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, w: 0, h: 0, count: 0 };
  for (const b of boxes) {
    if (b === undefined) continue;
    e.x0 = Math.min(e.x0, b.x0);
    e.y0 = Math.min(e.y0, b.y0);
    e.x1 = Math.max(e.x1, b.x1);
    e.y1 = Math.max(e.y1, b.y1);
    e.w = Math.max(e.w, b.x1 - b.x0);
    e.h = Math.max(e.h, b.y1 - b.y0);
    e.count += 1;
  }
  return e;
}
