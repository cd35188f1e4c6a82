import type { PreparedPolygon } from '../point-in-polygon.js';
import { localParity, segmentMeetsBox, type Box } from './local-parity.js';
import { crossesEast, crossesNorth } from './predicates.js';

/** One member polygon of one region in one box: its parity at the box's south-east corner and the edges meeting the box. */
export interface PartDraft {
  readonly region: number;
  /** Index into the polygons the trees are built with. */
  readonly polygon: number;
  readonly ref: boolean;
  /** First vertices of the polygon's edges (edge v runs from vertex v to v + 1) that meet the box, ascending. */
  readonly edges: readonly number[];
}

/**
 * Quadtrees over boxes, in two flat arrays laid out for few memory reads per lookup. A
 * node's box is split at its midpoint into four children (west–south, east–south,
 * west–north, east–north) until it meets at most `LEAF_EDGES` edges; boxes are not
 * stored, a lookup recomputes them from the root's with the same arithmetic as the build.
 *
 * - `nodes[n]`: the first of n's four consecutive children, or `-1 - offset` for a leaf;
 * - `leaves[offset …]`: one leaf in one block: the answer-set id of the regions holding
 *   the whole leaf box and the number of parts; then per part `region * 2 + parity at the
 *   leaf's south-east corner`, the offset where the part ends, and its edges as polylines
 *   (vertex count, then `x, y` per vertex; copied from the polygon so a leaf is read in
 *   one sweep).
 */
export interface BoxTrees {
  readonly nodes: Int32Array;
  readonly leaves: Float64Array;
  /** Leaves, parts and segments over all trees. */
  readonly leafCount: number;
  readonly partCount: number;
  readonly edgeCount: number;
}

/** A leaf keeps at most this many edges in all (unless `MAX_DEPTH` stops the splitting). */
const LEAF_EDGES = 24;
const MAX_DEPTH = 14;

/** Builds trees depth-first, so a subtree's nodes sit together. */
export class BoxTreeBuilder {
  private readonly nodes: number[] = [];
  private readonly leaves: number[] = [];
  private leafCount = 0;
  private partCount = 0;
  private edgeCount = 0;

  /** `intern` gives the answer-set id of an ascending list of region ids. */
  constructor(
    private readonly polygons: readonly PreparedPolygon[],
    private readonly intern: (ids: readonly number[]) => number,
  ) {}

  /** Adds one tree; returns its root node. `interior` (regions holding the whole box) must be ascending. */
  add(box: Box, parts: readonly PartDraft[], interior: readonly number[]): number {
    const root = this.allocate(1);
    this.settle(root, box, parts, interior, 0);
    return root;
  }

  private allocate(count: number): number {
    const first = this.nodes.length;
    for (let k = 0; k < count; k += 1) this.nodes.push(0);
    return first;
  }

  private settle(
    node: number,
    box: Box,
    parts: readonly PartDraft[],
    interior: readonly number[],
    depth: number,
  ): void {
    const edges = parts.reduce((n, p) => n + p.edges.length, 0);
    if (edges > LEAF_EDGES && depth < MAX_DEPTH) {
      const first = this.allocate(4);
      this.nodes[node] = first;
      this.split(parts, box).forEach((c, k) => {
        const inner = c.interior.length === 0 ? interior : [...interior, ...c.interior].sort((a, b) => a - b);
        this.settle(first + k, c.box, c.parts, inner, depth + 1);
      });
      return;
    }
    this.nodes[node] = -1 - this.leaves.length;
    this.leaves.push(this.intern(interior), parts.length);
    for (const p of parts) this.writePart(p);
    this.leafCount += 1;
  }

  /** One part of a leaf: its tag, where it ends, then its edges as polylines of consecutive edges. */
  private writePart(p: PartDraft): void {
    const { xy } = this.polygons[p.polygon]!;
    const header = this.leaves.length;
    this.leaves.push(2 * p.region + Number(p.ref), 0);
    let run = -1; // where the current polyline's vertex count is
    p.edges.forEach((v, k) => {
      if (k === 0 || p.edges[k - 1] !== v - 1) {
        run = this.leaves.length;
        this.leaves.push(1, xy[2 * v]!, xy[2 * v + 1]!);
      }
      this.leaves.push(xy[2 * v + 2]!, xy[2 * v + 3]!);
      this.leaves[run] = this.leaves[run]! + 1;
    });
    this.leaves[header + 1] = this.leaves.length;
    this.partCount += 1;
    this.edgeCount += p.edges.length;
  }

  /**
   * The four children of a box with their parts: each parent part keeps, per child, the
   * edges meeting the child; a region with a polygon whose edges all miss a child and
   * whose parity there is odd holds that whole child, and its parts there are dropped.
   */
  private split(parts: readonly PartDraft[], box: Box): { box: Box; parts: PartDraft[]; interior: number[] }[] {
    const children = quadrants(box).map((q) => ({ box: q, parts: [] as PartDraft[], interior: [] as number[] }));
    for (const p of parts) {
      const { xy } = this.polygons[p.polygon]!;
      const refs = childRefs(xy, p.edges, box, p.ref);
      const lists = splitEdges(
        xy,
        p.edges,
        children.map((c) => c.box),
      );
      children.forEach((c, k) => {
        if (lists[k]!.length > 0) c.parts.push({ ...p, ref: refs[k]!, edges: lists[k]! });
        else if (refs[k] && c.interior[c.interior.length - 1] !== p.region) c.interior.push(p.region);
      });
    }
    for (const c of children)
      if (c.interior.length > 0) c.parts = c.parts.filter((p) => !c.interior.includes(p.region));
    return children;
  }

  finish(): BoxTrees {
    return {
      nodes: Int32Array.from(this.nodes),
      leaves: Float64Array.from(this.leaves),
      leafCount: this.leafCount,
      partCount: this.partCount,
      edgeCount: this.edgeCount,
    };
  }
}

/** The four children of a box, split at its midpoint, in the order `lookupBoxTree` numbers them. */
function quadrants({ x0, y0, x1, y1 }: Box): Box[] {
  const xm = (x0 + x1) / 2,
    ym = (y0 + y1) / 2;
  return [
    { x0, y0, x1: xm, y1: ym },
    { x0: xm, y0, x1, y1: ym },
    { x0, y0: ym, x1: xm, y1 },
    { x0: xm, y0: ym, x1, y1 },
  ];
}

/**
 * A part's parity at its children's south-east corners, from its parity `ref` at the
 * parent's, (x1, y0), by the legs of `localParity`: west along the bottom side to
 * (xm, y0), north along the east side to (x1, ym), then west to (xm, ym). Every edge that
 * can change a parity along those legs meets the parent box, so it is in `edges`.
 */
function childRefs(xy: Float64Array, edges: readonly number[], { x0, y0, x1, y1 }: Box, ref: boolean): boolean[] {
  const xm = (x0 + x1) / 2,
    ym = (y0 + y1) / 2;
  let south = ref,
    east = ref,
    middle = false;
  for (const v of edges) {
    const ax = xy[2 * v]!,
      ay = xy[2 * v + 1]!,
      bx = xy[2 * v + 2]!,
      by = xy[2 * v + 3]!;
    if (crossesEast(ax, ay, bx, by, xm, y0) !== crossesEast(ax, ay, bx, by, x1, y0)) south = !south;
    if (crossesNorth(ax, ay, bx, by, x1, y0) !== crossesNorth(ax, ay, bx, by, x1, ym)) east = !east;
    if (crossesEast(ax, ay, bx, by, xm, ym) !== crossesEast(ax, ay, bx, by, x1, ym)) middle = !middle;
  }
  return [south, ref, east !== middle, east];
}

/** The edges meeting each of the boxes. */
function splitEdges(xy: Float64Array, edges: readonly number[], boxes: readonly Box[]): number[][] {
  const lists: number[][] = boxes.map(() => []);
  for (const v of edges) {
    const ax = xy[2 * v]!,
      ay = xy[2 * v + 1]!,
      bx = xy[2 * v + 2]!,
      by = xy[2 * v + 3]!;
    for (let k = 0; k < boxes.length; k += 1) if (segmentMeetsBox(ax, ay, bx, by, boxes[k]!)) lists[k]!.push(v);
  }
  return lists;
}

/**
 * Descends the tree from `root` (whose box `[x0, x1] × [y0, y1]` must hold the point) to
 * the point's leaf; appends the ids of the leaf's parts that hold the point (ascending,
 * as parts are stored by region) to `out` and returns the leaf's answer-set id.
 */
export function lookupBoxTree(
  t: BoxTrees,
  root: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  lng: number,
  lat: number,
  out: number[],
): number {
  let n = root;
  let first = t.nodes[n]!;
  while (first >= 0) {
    const xm = (x0 + x1) / 2,
      ym = (y0 + y1) / 2;
    n = first;
    if (lng >= xm) {
      n += 1;
      x0 = xm;
    } else x1 = xm;
    if (lat >= ym) {
      n += 2;
      y0 = ym;
    } else y1 = ym;
    first = t.nodes[n]!;
  }
  const { leaves } = t;
  // Counts and ids are stored as doubles; `| 0` keeps the indices small integers for V8.
  let i = -1 - first;
  const set = leaves[i]! | 0,
    parts = leaves[i + 1]! | 0;
  i += 2;
  for (let p = 0; p < parts; p += 1) {
    const tag = leaves[i]! >>> 0,
      end = leaves[i + 1]! | 0,
      region = tag >>> 1;
    if (
      (out.length === 0 || out[out.length - 1] !== region) &&
      localParity(leaves, i + 2, end, x1, y0, (tag & 1) === 1, lng, lat)
    )
      out.push(region);
    i = end;
  }
  return set;
}
