import { test } from 'vitest';
import * as h3 from 'h3-js';
import { loadUsAtlas } from '../store/us-atlas.js';
import { polygonsOf } from '../domain/point-in-polygon.js';
test('prof', () => {
  const regions = loadUsAtlas({});
  const rings = regions.flatMap((r) => polygonsOf(r.geometry).flat());
  let t = performance.now(); let n = 0;
  const sp = h3.getHexagonEdgeLengthAvg(5, 'km') / 4;
  const cells = new Set<string>();
  for (const ring of rings) for (let i = 0; i < ring.length - 1; i++) {
    const [ax, ay] = ring[i]!; const [bx, by] = ring[i + 1]!;
    const len = 111.19 * Math.hypot((bx! - ax!) * Math.cos(Math.min(Math.abs(ay!), Math.abs(by!)) * Math.PI / 180), by! - ay!);
    const steps = Math.max(1, Math.ceil(len / sp));
    for (let k = 0; k < steps; k++) { n++; cells.add(h3.latLngToCell(ay! + (by! - ay!) * k / steps, ax! + (bx! - ax!) * k / steps, 5)); }
  }
  console.error('samples', n, 'ms', performance.now() - t, 'cells', cells.size);
  t = performance.now(); let m = 0;
  for (const c of cells) m += h3.gridDisk(c, 1).length;
  console.error('gridDisk ms', performance.now() - t, m);
  t = performance.now(); m = 0;
  for (const ring of rings) { try { m += h3.polygonToCells([ring as number[][]], 5, true).length } catch {} }
  console.error('polygonToCells ms', performance.now() - t, m);
  t = performance.now();
  for (let i = 0; i < 100000; i++) h3.cellToLatLng('85283473fffffff');
  console.error('cellToLatLng us', (performance.now() - t) / 100);
}, 60000);
