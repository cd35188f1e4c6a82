import { cellToParent, latLngToCell } from 'h3-js';
import { expect, test } from 'vitest';
import { parentOf, splitCell } from './h3-parent.js';

test('parentOf matches h3 cellToParent at every coarser resolution', () => {
  const points: [number, number][] = [[39.7392, -104.9903], [51.9, 179.5], [-33.9, 18.4], [71.3, -156.8], [0, 0], [89.9, 10]];
  for (const [lat, lng] of points) {
    for (const res of [0, 5, 9, 15]) {
      const cell = latLngToCell(lat, lng, res);
      for (let p = 0; p <= res; p += 1) expect(parentOf(splitCell(cell), p)).toBe(cellToParent(cell, p));
    }
  }
});
