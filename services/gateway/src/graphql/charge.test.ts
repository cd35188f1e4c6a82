import { describe, expect, it } from 'vitest';
import { NODES_PER_REQUEST, requestsFor, resultNodes } from './charge.js';

describe('what a GraphQL answer counts as', () => {
  it('counts the objects and list items in data, not scalars', () => {
    expect(resultNodes(null)).toBe(0);
    expect(resultNodes({ a: 1, b: 'x' })).toBe(1);
    expect(resultNodes({ list: [{ x: 1 }, { x: 2 }], one: { y: null } })).toBe(1 + 1 + 2 + 1);
    expect(resultNodes({ scalars: [1, 2, 3] })).toBe(2);
    expect(
      resultNodes({
        region: {
          boundary: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [0, 1],
                [0, 0],
              ],
            ],
          },
        },
      }),
    ).toBe(3);
    // An alias named `coordinates` does not make a selection one node.
    expect(resultNodes({ coordinates: 'Query', list: [{}, {}, {}] })).toBe(5);
    expect(resultNodes({ x: { coordinates: [{ a: 1 }, { a: 2 }] } })).toBe(5);
  });

  it('is one request up to NODES_PER_REQUEST nodes, and one more per NODES_PER_REQUEST after', () => {
    const items = (n: number) => ({ data: { list: Array.from({ length: n }, () => ({})) } });
    expect(requestsFor({})).toBe(1);
    expect(requestsFor(items(NODES_PER_REQUEST - 2))).toBe(1);
    expect(requestsFor(items(NODES_PER_REQUEST - 1))).toBe(2);
    expect(requestsFor(items(10 * NODES_PER_REQUEST))).toBe(11);
  });
});
