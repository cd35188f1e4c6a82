import { latLngToCell } from 'h3-js';
import { describe, expect, test } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { loadUsAtlas } from '../store/us-atlas.js';
import { boundaryCells } from './cell-cover.js';
import { prepareGeometry } from './point-in-polygon.js';

describe('boundaryCells', () => {
  const regions = loadUsAtlas().filter(
    (r) => r.state === 'co' || ['region:ak', 'region:hi', 'region:ri', 'region:mi'].includes(r.slug),
  );

  test.each([4, 5, 7])('at resolution %i every point of every edge lies in a boundary cell', (res) => {
    const random = seededRandom(res);
    const missed = regions.flatMap((region) => {
      const prepared = prepareGeometry(region.geometry);
      const cells = boundaryCells(prepared, res)!;
      return prepared.polygons.flatMap(({ xy, ringEnds }) => {
        const out: string[] = [];
        for (let v = 0; v + 1 < ringEnds[ringEnds.length - 1]!; v += 1) {
          if (ringEnds.includes(v + 1)) continue; // no edge from a ring's last vertex
          const t = random();
          const [x, y] = [
            xy[2 * v]! + t * (xy[2 * v + 2]! - xy[2 * v]!),
            xy[2 * v + 1]! + t * (xy[2 * v + 3]! - xy[2 * v + 1]!),
          ];
          if (!cells.has(latLngToCell(y, x, res))) out.push(`${region.slug} ${y},${x}`);
        }
        return out;
      });
    });
    expect(missed.slice(0, 5)).toEqual([]);
  });

  test('a ring across the antimeridian, drawn the long way, is not put on the grid', () => {
    const band = prepareGeometry({
      type: 'Polygon',
      coordinates: [
        [
          [-179.5, 50],
          [179.5, 50],
          [179.5, 53],
          [-179.5, 53],
          [-179.5, 50],
        ],
      ],
    });
    expect(boundaryCells(band, 5)).toBeUndefined();
  });
});
