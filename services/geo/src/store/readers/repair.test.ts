import { describe, expect, test } from 'vitest';
import { repairGeometry } from './repair.js';

const square = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];
const hole = [
  [0.2, 0.2],
  [0.2, 0.4],
  [0.4, 0.4],
  [0.4, 0.2],
  [0.2, 0.2],
];
const polygon = (...rings: unknown[]) => ({ type: 'Polygon', coordinates: rings });

describe('repairGeometry', () => {
  test('passes a clean polygon through untouched', () => {
    expect(repairGeometry(polygon(square, hole))).toEqual({ geometry: polygon(square, hole), repairs: [] });
  });

  test('removes consecutive duplicate vertices, drops Z, and closes unclosed rings', () => {
    const messy = [
      [0, 0, 5],
      [1, 0, 5],
      [1, 0, 5],
      [1, 1],
      [0, 1],
      [0, 1],
    ];
    expect(repairGeometry(polygon(messy))).toEqual({
      geometry: polygon(square),
      repairs: ['removed 2 consecutive duplicate vertex(es)', 'closed 1 unclosed ring(s)'],
    });
  });

  test('drops degenerate holes and polygons, keeping the rest', () => {
    const flat = [
      [0, 0],
      [1, 1],
      [2, 2],
      [0, 0],
    ];
    const tiny = [
      [5, 5],
      [6, 6],
      [5, 5],
    ];
    const result = repairGeometry({ type: 'MultiPolygon', coordinates: [[square, flat], [tiny, hole], []] });
    expect(result.geometry).toEqual(polygon(square));
    expect(result.repairs).toEqual([
      'dropped 2 degenerate ring(s) (fewer than 4 positions or zero area)',
      'dropped 1 hole(s) of degenerate outer rings',
    ]);
  });

  test('flattens a GeometryCollection to its polygons, ignoring points and lines', () => {
    const collection = {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [0, 0] },
        polygon(square),
        {
          type: 'GeometryCollection',
          geometries: [
            { type: 'MultiPolygon', coordinates: [[hole]] },
            { type: 'LineString', coordinates: [] },
          ],
        },
      ],
    };
    expect(repairGeometry(collection)).toEqual({
      geometry: { type: 'MultiPolygon', coordinates: [[square], [hole]] },
      repairs: [
        'flattened a GeometryCollection to 1 polygon(s), ignoring 1 LineString',
        'flattened a GeometryCollection to 2 polygon(s), ignoring 1 Point',
      ],
    });
  });

  test.each([
    ['null', null, 'no_geometry', 'no geometry (null)'],
    ['a point', { type: 'Point', coordinates: [0, 0] }, 'not_polygonal', 'geometry type Point is not polygonal'],
    ['an empty polygon', polygon(), 'degenerate_geometry', 'empty geometry'],
    [
      'a polygon of degenerate rings',
      polygon([
        [0, 0],
        [1, 1],
        [0, 0],
      ]),
      'degenerate_geometry',
      'no valid rings: every outer ring is empty or degenerate',
    ],
    [
      'a collection of lines',
      { type: 'GeometryCollection', geometries: [{ type: 'LineString', coordinates: [] }] },
      'not_polygonal',
      'GeometryCollection holds no polygons (only 1 LineString)',
    ],
    [
      'an empty collection',
      { type: 'GeometryCollection', geometries: [] },
      'not_polygonal',
      'GeometryCollection holds no polygons',
    ],
    [
      'text coordinates',
      polygon([
        ['0', '0'],
        [1, 0],
        [1, 1],
        [0, 0],
      ]),
      'malformed_geometry',
      'malformed coordinates: ["0","0"] is not a pair of finite numbers',
    ],
    [
      'coordinates that are not arrays',
      { type: 'MultiPolygon', coordinates: 'x' },
      'malformed_geometry',
      'malformed geometry: coordinates is not an array',
    ],
    [
      'a bowtie',
      polygon([
        [0, 0],
        [2, 2],
        [2, 0],
        [0, 2],
        [0, 0],
      ]),
      'self_intersecting',
      'self-intersecting ring (outer ring): edges 0 and 2 cross at [1, 1]',
    ],
  ])('rejects %s with a code and a reason', (_, geometry, code, reason) => {
    expect(repairGeometry(geometry)).toMatchObject({ geometry: undefined, reject: { code, reason } });
  });

  test('names the polygon and hole that cross themselves', () => {
    const twistedHole = [
      [0.2, 0.2],
      [0.4, 0.4],
      [0.4, 0.2],
      [0.2, 0.4],
      [0.2, 0.2],
    ];
    const result = repairGeometry({ type: 'MultiPolygon', coordinates: [[square], [square, twistedHole]] });
    expect(result.reject?.reason).toBe('self-intersecting ring (polygon 2, hole 1): edges 0 and 2 cross at [0.3, 0.3]');
  });

  // Colorado's 2021 Senate District 13 runs up a section line, overshoots by 4 m and comes back
  // (vertices 1507 to 1510 of its ring): the two edges cross and close a loop of a few square metres.
  const overshoot = [
    [0, 0],
    [10, 0],
    [10.00002, 5.00004],
    [10.00002, 5],
    [10, 10],
    [0, 10],
    [0, 0],
  ];

  test('cuts off a sliver where a ring crosses itself, at the crossing, and says so', () => {
    const result = repairGeometry(polygon(overshoot));
    expect(result.reject).toBeUndefined();
    const ring = (result.geometry?.coordinates as number[][][])[0]!;
    expect(ring).toHaveLength(6);
    expect(ring.slice(0, 2)).toEqual([
      [0, 0],
      [10, 0],
    ]);
    expect(ring.slice(3)).toEqual([
      [10, 10],
      [0, 10],
      [0, 0],
    ]);
    const [x, y] = ring[2]!;
    expect(x).toBeCloseTo(10.00002, 9);
    expect(y).toBeGreaterThan(5);
    expect(y).toBeLessThan(5.00004);
    expect(result.repairs).toEqual([
      expect.stringMatching(
        /^cut 1 sliver\(s\) where a ring crossed itself \(the largest \d\.\de-1\d of its ring's area\)$/,
      ),
    ]);
  });

  test("cuts the sliver whichever side of the ring's start it lies on", () => {
    // The same ring started inside the loop: now the sliver is the part that wraps past the start.
    const fromLoop = [...overshoot.slice(3, 6), ...overshoot.slice(0, 3), overshoot[3]!];
    const result = repairGeometry(polygon(fromLoop));
    expect(result.reject).toBeUndefined();
    expect((result.geometry?.coordinates as number[][][])[0]).toHaveLength(6);
  });

  test('rejects a crossing whose smaller side is more than a sliver', () => {
    const overshootBy = (d: number) => [
      [0, 0],
      [10, 0],
      [10 + d, 5 + 2 * d],
      [10 + d, 5],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    expect(repairGeometry(polygon(overshootBy(0.01))).reject?.code).toBe('self_intersecting');
  });
});
