import { describe, expect, test } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { loadUsAtlas } from '../../store/us-atlas.js';
import { containsPoint, prepareGeometry } from '../point-in-polygon.js';
import { compareRegions } from '../region.js';
import { AnswerSets } from './answer-sets.js';
import { buildCellTable, lookupCellTable, type CellTable } from './cell-table.js';
import { pointsNearEdges, type LatLng } from './test-data.js';

const regions = loadUsAtlas()
  .filter((r) => ['co', 'ut', 'wy'].includes(r.state))
  .sort(compareRegions);
const prepared = regions.map((r) => prepareGeometry(r.geometry));
const answers = new AnswerSets(regions);

function ids(table: CellTable, [lat, lng]: LatLng): number[] {
  const more: number[] = [];
  const set = lookupCellTable(table, lat, lng, more);
  return [...(set >= 0 ? answers.ids[set]! : []), ...more].sort((a, b) => a - b);
}

function bruteForce([lat, lng]: LatLng): number[] {
  return prepared.flatMap((g, id) => (containsPoint(g, lng, lat) ? [id] : []));
}

describe('CellTable', () => {
  const random = seededRandom(21);
  const points: LatLng[] = [
    ...Array.from({ length: 4000 }, (): LatLng => [36 + random() * 10, -115 + random() * 12]),
    ...pointsNearEdges(regions, 4000, 22),
  ];

  test.each([4, 6])('at resolution %i, every point gets the brute-force answer', (resolution) => {
    const table = buildCellTable(prepared, resolution, (list) => answers.intern(list));
    const wrong = points.filter((p) => JSON.stringify(ids(table, p)) !== JSON.stringify(bruteForce(p)));
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('a point outside its cell’s box is answered from the cell’s whole-cell regions and full tests of its candidates', () => {
    const table = buildCellTable(prepared, 5, (list) => answers.intern(list));
    // Move every box far away, so every point with an entry takes the outside-the-box path.
    const away: CellTable = {
      ...table,
      boxes: table.boxes.map((v, k) => (Number.isNaN(v) ? v : k % 4 < 2 ? 1000 : 1001)),
    };
    const wrong = points.filter((p) => JSON.stringify(ids(away, p)) !== JSON.stringify(bruteForce(p)));
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
