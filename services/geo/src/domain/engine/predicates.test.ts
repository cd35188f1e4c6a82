import { describe, expect, test } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { crossesEast, crossesNorth } from './predicates.js';

type Ring = [number, number][];

/** A random closed ring on a small integer lattice: collinear runs, shared coordinates, self-crossings. */
function latticeRing(random: () => number, size: number): Ring {
  const n = 3 + Math.floor(random() * 8);
  return Array.from({ length: n }, () => [Math.floor(random() * size), Math.floor(random() * size)]);
}

function parity(rings: readonly Ring[], x: number, y: number, crosses: typeof crossesEast): boolean {
  let odd = false;
  for (const ring of rings) {
    ring.forEach(([ax, ay], k) => {
      const [bx, by] = ring[(k + 1) % ring.length]!;
      if (crosses(ax, ay, bx, by, x, y)) odd = !odd;
    });
  }
  return odd;
}

describe('crossesEast and crossesNorth', () => {
  test('count crossings of the same parity for any rings and any point, on vertices and edges included', () => {
    const random = seededRandom(17);
    const bad: unknown[] = [];
    for (let k = 0; k < 3000; k += 1) {
      const rings = Array.from({ length: 1 + Math.floor(random() * 3) }, () => latticeRing(random, 6));
      for (let p = 0; p < 20; p += 1) {
        const [x, y] = [Math.floor(random() * 14) / 2 - 0.5, Math.floor(random() * 14) / 2 - 0.5];
        if (parity(rings, x, y, crossesEast) !== parity(rings, x, y, crossesNorth)) bad.push({ rings, x, y });
      }
    }
    expect(bad.slice(0, 3)).toEqual([]);
  });

  test('read a point on an edge as nudged east, then a far smaller step north', () => {
    // A unit square: the west side and south side hold their points, the east and north sides do not.
    const square: Ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    const both = (x: number, y: number) => [parity([square], x, y, crossesEast), parity([square], x, y, crossesNorth)];
    expect(both(0, 0.5)).toEqual([true, true]);
    expect(both(0.5, 0)).toEqual([true, true]);
    expect(both(1, 0.5)).toEqual([false, false]);
    expect(both(0.5, 1)).toEqual([false, false]);
    expect(both(0, 0)).toEqual([true, true]);
    expect(both(1, 0)).toEqual([false, false]);
  });

  test('a point on a rising or falling diagonal takes the side the nudge moves it to', () => {
    // Nudged east, a point on a diagonal lands below a rising edge and above a falling one.
    expect(crossesNorth(0, 0, 2, 2, 1, 1)).toBe(true);
    expect(crossesNorth(0, 2, 2, 0, 1, 1)).toBe(false);
    expect(crossesEast(0, 0, 2, 2, 1, 1)).toBe(false);
  });
});
