import { describe, expect, test } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { polygonContains, prepareGeometry, type PreparedPolygon } from '../point-in-polygon.js';
import { localParity, segmentMeetsBox, type Box } from './local-parity.js';

/** A random polygon of 1–3 rings on a small lattice (holes, overlaps and self-crossings alike). */
function latticePolygon(random: () => number, size: number): PreparedPolygon {
  const rings = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const n = 3 + Math.floor(random() * 10);
    return Array.from({ length: n }, () => [Math.floor(random() * size) / 2, Math.floor(random() * size) / 2]);
  });
  return prepareGeometry({ type: 'Polygon', coordinates: rings }).polygons[0]!;
}

/** Polylines (`n, x0, y0, …`): with `all`, each whole ring as one; else one per edge meeting the box. */
function edgesFor(polygon: PreparedPolygon, box: Box, all: boolean): Float64Array {
  const data: number[] = [];
  let start = 0;
  for (const end of polygon.ringEnds) {
    if (all) data.push(end - start, ...polygon.xy.subarray(2 * start, 2 * end));
    for (let v = start; !all && v + 1 < end; v += 1) {
      const [ax, ay, bx, by] = polygon.xy.subarray(2 * v, 2 * v + 4);
      if (segmentMeetsBox(ax!, ay!, bx!, by!, box)) data.push(2, ax!, ay!, bx!, by!);
    }
    start = end;
  }
  return Float64Array.from(data);
}

describe('localParity', () => {
  test('equals the brute force at lattice points of a box, corners, sides, vertices and edges included', () => {
    const random = seededRandom(99);
    const bad: unknown[] = [];
    for (let k = 0; k < 2000; k += 1) {
      const polygon = latticePolygon(random, 12);
      const [x0, y0] = [Math.floor(random() * 10) / 2 - 0.5, Math.floor(random() * 10) / 2 - 0.5];
      const box: Box = {
        x0,
        y0,
        x1: x0 + (1 + Math.floor(random() * 6)) / 2,
        y1: y0 + (1 + Math.floor(random() * 6)) / 2,
      };
      const ref = polygonContains(polygon, box.x1, box.y0);
      for (const all of [false, true]) {
        const edges = edgesFor(polygon, box, all);
        for (let x = box.x0; x <= box.x1; x += 0.25) {
          for (let y = box.y0; y <= box.y1; y += 0.25) {
            const local = localParity(edges, 0, edges.length, box.x1, box.y0, ref, x, y);
            if (local !== polygonContains(polygon, x, y)) bad.push({ k, all, x, y });
          }
        }
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

describe('segmentMeetsBox', () => {
  const box: Box = { x0: 0, y0: 0, x1: 1, y1: 1 };

  test('finds segments that cross, touch a corner, run along a side or lie inside', () => {
    expect(segmentMeetsBox(-1, 0.5, 2, 0.5, box)).toBe(true);
    expect(segmentMeetsBox(-1, 1, 1, 3, box)).toBe(false);
    expect(segmentMeetsBox(-1, 0, 0, 1, box)).toBe(true);
    expect(segmentMeetsBox(0.5, 2, 2, 0.5, box)).toBe(false);
    expect(segmentMeetsBox(0, 2, 2, 0, box)).toBe(true);
    expect(segmentMeetsBox(1, -1, 1, 2, box)).toBe(true);
    expect(segmentMeetsBox(0.2, 0.2, 0.3, 0.3, box)).toBe(true);
  });

  test('never misses a segment that has a point in the box', () => {
    const random = seededRandom(3);
    for (let k = 0; k < 20000; k += 1) {
      const [ax, ay, bx, by] = [random() * 4 - 1.5, random() * 4 - 1.5, random() * 4 - 1.5, random() * 4 - 1.5];
      const t = random();
      const [x, y] = [ax + t * (bx - ax), ay + t * (by - ay)];
      if (x > 0 && x < 1 && y > 0 && y < 1) expect(segmentMeetsBox(ax, ay, bx, by, box)).toBe(true);
    }
  });
});
