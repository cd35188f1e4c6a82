/**
 * A polygon's non-horizontal edges bucketed into equal latitude bands, so a point test
 * visits only the edges whose latitude range meets the point's band instead of every edge
 * (a 5,000-vertex district costs a few dozen edge checks, not 5,000).
 */
export interface EdgeBands {
  /** Band b holds `ids[starts[b]] … ids[starts[b + 1] - 1]`. */
  readonly starts: Uint32Array;
  /** Edges by their first vertex: id v is the edge from vertex v to vertex v + 1 (rings are closed). */
  readonly ids: Uint32Array;
  readonly minY: number;
  /** Bands per degree of latitude (0 for a single band). */
  readonly scale: number;
  readonly count: number;
}

/** About this many edges per band on average; small polygons get one band. */
const EDGES_PER_BAND = 8;
const MAX_BANDS = 4096;

/** Buckets the edges of the closed rings in `xy` (ring ends in vertices) by latitude. */
export function buildEdgeBands(xy: Float64Array, ringEnds: Uint32Array, minY: number, maxY: number): EdgeBands {
  const edges = nonHorizontalEdges(xy, ringEnds);
  const count = Math.max(1, Math.min(MAX_BANDS, Math.floor(edges.length / EDGES_PER_BAND)));
  const grid = { minY, scale: count > 1 && maxY > minY ? count / (maxY - minY) : 0, count };
  const spans = new Uint32Array(2 * edges.length); // first and last band of each edge
  edges.forEach((v, e) => {
    const ya = xy[2 * v + 1]!,
      yb = xy[2 * v + 3]!;
    spans[2 * e] = bandOf(grid, Math.min(ya, yb));
    spans[2 * e + 1] = bandOf(grid, Math.max(ya, yb));
  });
  const starts = bandStarts(spans, count);
  return { starts, ids: bandIds(edges, spans, starts), ...grid };
}

/** Prefix sums of the number of edges meeting each band. */
function bandStarts(spans: Uint32Array, count: number): Uint32Array {
  const starts = new Uint32Array(count + 1);
  for (let e = 0; e < spans.length; e += 2) {
    for (let b = spans[e]!; b <= spans[e + 1]!; b += 1) starts[b + 1] = starts[b + 1]! + 1;
  }
  for (let b = 0; b < count; b += 1) starts[b + 1] = starts[b + 1]! + starts[b]!;
  return starts;
}

function bandIds(edges: Uint32Array, spans: Uint32Array, starts: Uint32Array): Uint32Array {
  const ids = new Uint32Array(starts[starts.length - 1]!);
  const next = starts.slice(0, -1);
  for (let e = 0; e < edges.length; e += 1) {
    for (let b = spans[2 * e]!; b <= spans[2 * e + 1]!; b += 1) {
      ids[next[b]!] = edges[e]!;
      next[b] = next[b]! + 1;
    }
  }
  return ids;
}

/** The band a latitude falls in (clamped), computed the same way for edges and points. */
export function bandOf(bands: Pick<EdgeBands, 'minY' | 'scale' | 'count'>, y: number): number {
  const b = Math.floor((y - bands.minY) * bands.scale);
  return b < 0 ? 0 : b >= bands.count ? bands.count - 1 : b;
}

/** First vertices of the non-horizontal edges (horizontal edges never cross an east ray). */
function nonHorizontalEdges(xy: Float64Array, ringEnds: Uint32Array): Uint32Array {
  const firsts: number[] = [];
  let start = 0;
  for (const end of ringEnds) {
    for (let v = start; v + 1 < end; v += 1) {
      if (xy[2 * v + 1] !== xy[2 * v + 3]) firsts.push(v);
    }
    start = end;
  }
  return Uint32Array.from(firsts);
}
