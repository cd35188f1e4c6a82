import { describe, expect, test } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { containsPoint, prepareGeometry } from '../point-in-polygon.js';
import { buildAnswerGrid, lookupAnswerGrid } from './answer-grid.js';

function box(x0: number, y0: number, x1: number, y1: number): number[][] {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

describe('AnswerGrid', () => {
  // Squares on the grid's own lines, a triangle, a region across ±180°, a long thin sliver and a large square.
  const geometries = [
    box(-105, 39, -104, 40),
    box(-104, 39, -103.25, 39.75),
    [
      [-104.5, 39.5],
      [-102, 41.3],
      [-103.9, 41.9],
      [-104.5, 39.5],
    ],
    box(179.5, 51, 180, 52),
    box(-180, 51, -179.5, 52),
    [
      [-100, 40],
      [-90, 40.001],
      [-100, 40.002],
      [-100, 40],
    ],
    box(-110, 30, -107, 33),
  ].map((ring) => prepareGeometry({ type: 'Polygon', coordinates: [ring] }));
  const answers: string[] = [];
  const answerOf = (lat: number, lng: number) =>
    geometries.flatMap((g, k) => (containsPoint(g, lng, lat) ? [k] : [])).join(',');
  const grid = buildAnswerGrid(geometries, 4, (lat, lng) => {
    const a = answerOf(lat, lng);
    if (!answers.includes(a)) answers.push(a);
    return answers.indexOf(a);
  });

  test('a stored answer equals the exact answer at random points, on grid lines and on edges', () => {
    const random = seededRandom(8);
    const points: [number, number][] = [];
    for (let k = 0; k < 20000; k += 1) points.push([38 + random() * 5, -106 + random() * 17]);
    for (let k = 0; k < 2000; k += 1)
      points.push([50 + random() * 3, random() < 0.5 ? 179 + random() : -180 + random()]);
    for (let k = 0; k <= 400; k += 1)
      points.push(
        [38 + k / 80, -105],
        [39 + k / 400, -104 + k / 400],
        [40 + (k / 400) * 0.001, -100 + k / 40],
        [39.75, -104 + k / 400],
      );
    const wrong = points.filter(([lat, lng]) => {
      const id = lookupAnswerGrid(grid, lat, lng);
      return id >= 0 && answers[id] !== answerOf(lat, lng);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('squares an edge passes through are left to the exact test, the rest answer at once', () => {
    expect(lookupAnswerGrid(grid, 39.5, -104)).toBe(-1);
    expect(answers[lookupAnswerGrid(grid, 31.6, -108.4)]).toBe('6');
    expect(answers[lookupAnswerGrid(grid, 0, 0)]).toBe('');
    expect(answers[lookupAnswerGrid(grid, 90, 180)]).toBe('');
  });

  test('the squares per degree must be a power of two', () => {
    expect(() => buildAnswerGrid([], 3, () => 0)).toThrow(RangeError);
  });
});
