import { describe, expect, test } from 'vitest';
import { findRingCrossing } from './ring-crossing.js';

/** A closed n-gon on a circle, with radius jitter so edges are irregular like a TIGER line. */
function circle(n: number): number[][] {
  const ring = Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / n;
    const radius = 1 + 0.0001 * Math.sin(37 * angle);
    return [-105 + radius * Math.cos(angle), 39 + radius * Math.sin(angle)];
  });
  return [...ring, ring[0]!];
}

describe('findRingCrossing', () => {
  test('finds where a bowtie crosses itself', () => {
    expect(
      findRingCrossing([
        [0, 0],
        [2, 2],
        [2, 0],
        [0, 2],
        [0, 0],
      ]),
    ).toEqual({ edges: [0, 2], at: [1, 1] });
  });

  test('finds the crossings of a pentagram', () => {
    const star = [0, 2, 4, 1, 3, 0].map((k) => [Math.cos((2 * Math.PI * k) / 5), Math.sin((2 * Math.PI * k) / 5)]);
    expect(findRingCrossing(star)).toBeDefined();
  });

  test('passes simple rings, including a square and a triangle', () => {
    expect(
      findRingCrossing([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ]),
    ).toBeUndefined();
    expect(
      findRingCrossing([
        [0, 0],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
    ).toBeUndefined();
  });

  test('passes a ring that touches itself at a vertex (an ESRI inverted island)', () => {
    const touching = [
      [0, 0],
      [4, 0],
      [4, 4],
      [2, 0],
      [0, 4],
      [0, 0],
    ];
    expect(findRingCrossing(touching)).toBeUndefined();
  });

  test('finds one swapped pair of vertices in a 10,000-vertex ring, and passes the ring without it', async ({
    annotate,
  }) => {
    const ring = circle(10_000);
    const start = performance.now();
    expect(findRingCrossing(ring)).toBeUndefined();
    const twisted = ring.map((p) => [...p]);
    [twisted[5000], twisted[5001]] = [twisted[5001]!, twisted[5000]!];
    expect(findRingCrossing(twisted)?.edges).toEqual([4999, 5001]);
    await annotate(`two 10,000-vertex rings checked in ${Math.round(performance.now() - start)} ms`);
  });
});
