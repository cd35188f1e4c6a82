import type { Position } from '../../domain/region.js';
import { orient } from '../../domain/orient.js';

/** Two edges of a ring that cross, and roughly where. */
export interface RingCrossing {
  /** Indices of the crossing edges (edge i runs from position i to i + 1). */
  readonly edges: readonly [number, number];
  /** The crossing point, for messages. */
  readonly at: readonly [number, number];
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Below this many edges a quadtree cell is checked pair by pair. */
const LEAF_EDGES = 24;
const MAX_DEPTH = 24;

/**
 * Finds two edges of a closed ring that cross properly (each passes strictly through the
 * other's interior), as in a bowtie. Rings that merely touch themselves at a vertex (ESRI
 * allows them) or fold back along an edge are not reported. Edges are bucketed into a
 * quadtree, so a 10,000-vertex TIGER ring costs milliseconds, not the 50 million pair tests
 * of the naive check. Orientation tests are exact (`orient`).
 */
export function findRingCrossing(ring: readonly Position[]): RingCrossing | undefined {
  const edgeCount = ring.length - 1;
  if (edgeCount < 4) return undefined; // a triangle's edges are all adjacent
  const edges = Array.from({ length: edgeCount }, (_, i) => i);
  const r: Ring = { ring, boxes: edges.map((e) => edgeBox(ring, e)) };
  return search(r, edges, boxOf(r.boxes), 0);
}

/** A ring with its edges' bounding boxes, computed once. */
interface Ring {
  ring: readonly Position[];
  boxes: readonly Box[];
}

function search(r: Ring, edges: number[], box: Box, depth: number): RingCrossing | undefined {
  if (edges.length <= LEAF_EDGES || depth >= MAX_DEPTH) return pairwise(r, edges);
  const midX = (box.minX + box.maxX) / 2;
  const midY = (box.minY + box.maxY) / 2;
  const quadrants: Box[] = [
    { minX: box.minX, minY: box.minY, maxX: midX, maxY: midY },
    { minX: midX, minY: box.minY, maxX: box.maxX, maxY: midY },
    { minX: box.minX, minY: midY, maxX: midX, maxY: box.maxY },
    { minX: midX, minY: midY, maxX: box.maxX, maxY: box.maxY },
  ];
  const parts = quadrants.map((q) => edges.filter((e) => overlaps(r.boxes[e]!, q)));
  // Edges that all meet every quadrant (a star of long edges) cannot be split further.
  if (parts.every((p) => p.length === edges.length)) return pairwise(r, edges);
  for (const [i, part] of parts.entries()) {
    const found = search(r, part, quadrants[i]!, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function pairwise(r: Ring, edges: readonly number[]): RingCrossing | undefined {
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      const e = edges[i]!;
      const f = edges[j]!;
      if (!overlaps(r.boxes[e]!, r.boxes[f]!)) continue;
      const crossing = properCrossing(r.ring, e, f);
      if (crossing !== undefined) return crossing;
    }
  }
  return undefined;
}

/** Edges sharing a vertex (neighbours) always have a zero orientation, so are never proper. */
function properCrossing(ring: readonly Position[], e: number, f: number): RingCrossing | undefined {
  const [ax, ay] = xy(ring, e);
  const [bx, by] = xy(ring, e + 1);
  const [cx, cy] = xy(ring, f);
  const [dx, dy] = xy(ring, f + 1);
  if (orient(ax, ay, bx, by, cx, cy) * orient(ax, ay, bx, by, dx, dy) >= 0) return undefined;
  if (orient(cx, cy, dx, dy, ax, ay) * orient(cx, cy, dx, dy, bx, by) >= 0) return undefined;
  const t = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / ((bx - ax) * (dy - cy) - (by - ay) * (dx - cx));
  return { edges: [e, f], at: [ax + t * (bx - ax), ay + t * (by - ay)] };
}

function xy(ring: readonly Position[], i: number): [number, number] {
  const p = ring[i]!;
  return [p[0]!, p[1]!];
}

function edgeBox(ring: readonly Position[], e: number): Box {
  const [ax, ay] = xy(ring, e);
  const [bx, by] = xy(ring, e + 1);
  return { minX: Math.min(ax, bx), minY: Math.min(ay, by), maxX: Math.max(ax, bx), maxY: Math.max(ay, by) };
}

function boxOf(boxes: readonly Box[]): Box {
  const box: Box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const b of boxes) {
    box.minX = Math.min(box.minX, b.minX);
    box.minY = Math.min(box.minY, b.minY);
    box.maxX = Math.max(box.maxX, b.maxX);
    box.maxY = Math.max(box.maxY, b.maxY);
  }
  return box;
}

function overlaps(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}
