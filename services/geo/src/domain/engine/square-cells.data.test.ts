import { latLngToCell } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@civicgraph/kit';
import { prepareGeometry } from '../point-in-polygon.js';
import { buildCellTable } from './cell-table.js';
import { SquareCells } from './square-cells.js';
import { nationalRegions } from './test-data.js';

describe('answer-grid squares that name their H3 cell', () => {
  const regions = nationalRegions();
  const table = buildCellTable(
    regions.map((r) => prepareGeometry(r.geometry)),
    5,
    () => 0,
  );
  const keyOf = new Map([...table.entries].map(([cell, e]) => [e, cell]));
  const cells = new SquareCells(table);

  it('name a cell only when every point of the square, corners and edges included, lies in it', () => {
    const random = seededRandom(11);
    const n = 64;
    let named = 0;
    let tried = 0;
    for (let k = 0; k < 20_000; k += 1) {
      // Squares of the grid over the US, Alaska and Hawaii.
      const x0 = Math.floor((-170 + random() * 105) * n) / n,
        y0 = Math.floor((18 + random() * 54) * n) / n;
      const e = cells.entryHolding(x0, y0, x0 + 1 / n, y0 + 1 / n);
      tried += 1;
      if (e < 0) continue;
      named += 1;
      const cell = keyOf.get(e);
      const probes = [
        [y0, x0],
        [y0, x0 + 1 / n],
        [y0 + 1 / n, x0],
        [y0 + 1 / n, x0 + 1 / n],
        [y0 + random() / n, x0 + random() / n],
        [y0 + random() / n, x0],
      ];
      for (const [lat, lng] of probes) expect(latLngToCell(lat!, lng!, 5), `${lat},${lng}`).toBe(cell);
    }
    // Most squares edges pass through lie well inside one ~10 km cell.
    expect(named).toBeGreaterThan(0);
    expect(named / tried).toBeLessThan(1);
  });

  it('name none for a square astride two cells', () => {
    // A square as large as a cell cannot lie inside it.
    expect(cells.entryHolding(-105.1, 39.6, -104.9, 39.8)).toBe(-1);
  });
});
