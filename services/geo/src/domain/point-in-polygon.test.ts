import { describe, expect, test } from 'vitest';
import { containsPoint, prepareGeometry, type PreparedGeometry } from './point-in-polygon.js';
import type { RegionGeometry } from './region.js';

function square(x0: number, y0: number, size = 1): number[][] {
  return [
    [x0, y0],
    [x0 + size, y0],
    [x0 + size, y0 + size],
    [x0, y0 + size],
    [x0, y0],
  ];
}

function poly(...rings: number[][][]): PreparedGeometry {
  return prepareGeometry({ type: 'Polygon', coordinates: rings });
}

/** A seeded PRNG (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('containsPoint', () => {
  const west = poly(square(0, 0));
  const east = poly(square(1, 0));
  const north = poly(square(0, 1));

  test('a point inside a square is contained and a point outside is not', () => {
    expect(containsPoint(west, 0.5, 0.5)).toBe(true);
    expect(containsPoint(west, 1.5, 0.5)).toBe(false);
    expect(containsPoint(west, -0.5, 0.5)).toBe(false);
  });

  test('a point on the shared north–south edge of two squares belongs to the east one only', () => {
    for (const y of [0.25, 0.5, 0.999]) {
      expect([containsPoint(west, 1, y), containsPoint(east, 1, y)]).toEqual([false, true]);
    }
  });

  test('a point on the shared east–west edge of two squares belongs to the north one only', () => {
    for (const x of [0.001, 0.5, 0.75]) {
      expect([containsPoint(west, x, 1), containsPoint(north, x, 1)]).toEqual([false, true]);
    }
  });

  test('the corner shared by four squares belongs to the north-east square only', () => {
    const squares = [square(0, 0), square(1, 0), square(0, 1), square(1, 1)].map((r) => poly(r));
    expect(squares.map((s) => containsPoint(s, 1, 1))).toEqual([false, false, false, true]);
  });

  test('the answer does not depend on ring orientation', () => {
    const reversed = poly(square(1, 0).reverse());
    expect(containsPoint(reversed, 1, 0.5)).toBe(true);
    expect(containsPoint(reversed, 2, 0.5)).toBe(false);
  });

  test('a hole is excluded, and the hole’s own edges follow the same east/north rule', () => {
    const donut = poly(square(0, 0, 4), square(1, 1, 2));
    const plug = poly(square(1, 1, 2));
    expect(containsPoint(donut, 2, 2)).toBe(false);
    expect(containsPoint(donut, 0.5, 2)).toBe(true);
    // On the hole's west edge the hole (the plug) lies east, on its east edge the donut does.
    expect([containsPoint(donut, 1, 2), containsPoint(plug, 1, 2)]).toEqual([false, true]);
    expect([containsPoint(donut, 3, 2), containsPoint(plug, 3, 2)]).toEqual([true, false]);
  });

  test('a multipolygon contains a point in any member and none in the gap between them', () => {
    const geometry: RegionGeometry = { type: 'MultiPolygon', coordinates: [[square(0, 0)], [square(5, 5)]] };
    const both = prepareGeometry(geometry);
    expect(containsPoint(both, 0.5, 0.5)).toBe(true);
    expect(containsPoint(both, 5.5, 5.5)).toBe(true);
    expect(containsPoint(both, 3, 3)).toBe(false);
  });

  test('rings given without the closing vertex work the same', () => {
    const open = poly(square(0, 0).slice(0, 4));
    expect(containsPoint(open, 0.5, 0.5)).toBe(true);
    expect(containsPoint(open, 1, 0.5)).toBe(false);
  });

  test('a jittered mesh of quadrilaterals places every point, vertices and edges included, in exactly one cell', () => {
    const random = rng(7);
    const n = 8;
    const jitter = (i: number, j: number): [number, number] =>
      i === 0 || j === 0 || i === n || j === n ? [i, j] : [i + (random() - 0.5) * 0.6, j + (random() - 0.5) * 0.6];
    const grid = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: n + 1 }, (_, j) => jitter(i, j)));
    const cells: PreparedGeometry[] = [];
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        const ring = [grid[i]![j]!, grid[i + 1]![j]!, grid[i + 1]![j + 1]!, grid[i]![j + 1]!, grid[i]![j]!];
        cells.push(poly(ring));
      }
    }
    const points: [number, number][] = [];
    for (let k = 0; k < 3000; k += 1) points.push([0.001 + random() * (n - 0.002), 0.001 + random() * (n - 0.002)]);
    for (let i = 1; i < n; i += 1) for (let j = 1; j < n; j += 1) points.push(grid[i]![j]!);
    for (let i = 1; i < n; i += 1) {
      for (let j = 1; j < n; j += 1) {
        const [ax, ay] = grid[i]![j]!,
          [bx, by] = grid[i]![j + 1]!;
        points.push([ax + (bx - ax) / 2, ay + (by - ay) / 2], [ax + (bx - ax) / 3, ay + (by - ay) / 3]);
      }
    }
    const counts = points.map(([x, y]) => cells.filter((c) => containsPoint(c, x, y)).length);
    const wrong = points.filter((_, k) => counts[k] !== 1);
    expect(wrong).toEqual([]);
  });

  test('two triangles splitting a square along its diagonal share every diagonal point exactly once', () => {
    const lower = poly([
      [0, 0],
      [0.3, 0],
      [0.3, 0.7],
      [0, 0],
    ]);
    const upper = poly([
      [0, 0],
      [0.3, 0.7],
      [0, 0.7],
      [0, 0],
    ]);
    for (let k = 1; k < 500; k += 1) {
      const t = k / 500;
      const [x, y] = [0.3 * t, 0.7 * t];
      expect(Number(containsPoint(lower, x, y)) + Number(containsPoint(upper, x, y))).toBe(1);
    }
  });
  test('a many-vertex polygon, whose edges are bucketed by latitude, agrees with geometry', () => {
    const n = 2000;
    const ring = Array.from({ length: n + 1 }, (_, k) => [
      Math.cos((2 * Math.PI * k) / n),
      Math.sin((2 * Math.PI * k) / n),
    ]);
    const circle = poly(ring);
    expect(circle.polygons[0]!.bands.count).toBeGreaterThan(100);
    const random = rng(3);
    for (let k = 0; k < 5000; k += 1) {
      const [x, y] = [random() * 2.4 - 1.2, random() * 2.4 - 1.2];
      const r = Math.hypot(x, y);
      if (Math.abs(r - 1) > 1e-3) expect(containsPoint(circle, x, y)).toBe(r < 1);
    }
    // A vertex on the circle's west side has the polygon to its east; on the east side, not.
    const [west, east] = [ring[n / 2]!, ring[0]!];
    expect(containsPoint(circle, west[0]!, west[1]!)).toBe(true);
    expect(containsPoint(circle, east[0]!, east[1]!)).toBe(false);
  });
});
