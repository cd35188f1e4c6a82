import { describe, expect, test } from 'vitest';
import { orient, orientExact } from './orient.js';

describe('orient', () => {
  test('gives the side of a directed line: left positive, right negative, on it zero', () => {
    expect(orient(0, 0, 1, 0, 0.5, 1)).toBe(1);
    expect(orient(0, 0, 1, 0, 0.5, -1)).toBe(-1);
    expect(orient(0, 0, 2, 2, 1, 1)).toBe(0);
  });

  test('agrees with exact arithmetic for points within a few ulps of the line', () => {
    let a = 12345;
    const random = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
    for (let k = 0; k < 20000; k += 1) {
      const [ax, ay, bx, by] = [-105 + random(), 39 + random(), -105 + random(), 39 + random()];
      const t = random();
      const x = ax + t * (bx - ax) + (random() - 0.5) * 1e-14;
      const y = ay + t * (by - ay);
      expect(orient(ax, ay, bx, by, x, y)).toBe(orientExact(ax, ay, bx, by, x, y));
    }
  });

  test('decides points that floating-point rounding would misplace', () => {
    // 0.1, 0.2, 0.3 are not exactly collinear as doubles; the exact sign is what counts.
    const exact = orientExact(0.1, 0.1, 0.3, 0.3, 0.2, 0.2);
    expect(orient(0.1, 0.1, 0.3, 0.3, 0.2, 0.2)).toBe(exact);
    expect(orientExact(0, 0, 3, 3, 1, 1)).toBe(0);
  });
});
