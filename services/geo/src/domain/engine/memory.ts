import type { PreparedGeometry } from '../point-in-polygon.js';
import type { AnswerGrid } from './answer-grid.js';
import type { CellTable } from './cell-table.js';

/** Rough V8 costs: a Map entry with its 15-character H3 key, an array slot, an object, a typed array's own objects. */
const MAP_ENTRY_BYTES = 80;
const SLOT_BYTES = 8;
const OBJECT_BYTES = 64;
const TYPED_ARRAY_BYTES = 200;

/**
 * Approximate bytes the index holds: typed arrays exactly, JS objects and maps by rough
 * per-entry costs. Regions themselves (their GeoJSON) belong to the caller and are not counted.
 */
export function indexBytes(
  prepared: readonly PreparedGeometry[],
  t: CellTable,
  grid: AnswerGrid,
  answers: readonly (readonly unknown[])[],
): number {
  let bytes = 0;
  for (const g of prepared) {
    bytes += OBJECT_BYTES;
    for (const p of g.polygons) {
      bytes +=
        2 * OBJECT_BYTES +
        4 * TYPED_ARRAY_BYTES +
        p.xy.byteLength +
        p.ringEnds.byteLength +
        p.bands.starts.byteLength +
        p.bands.ids.byteLength;
    }
  }
  bytes += t.entries.size * MAP_ENTRY_BYTES;
  const tr = t.trees;
  for (const a of [t.cellStarts, t.cellIds, t.roots, t.boxes, t.candidateStarts, t.candidateIds, t.fallback])
    bytes += a.byteLength;
  bytes += t.regionBoxes.byteLength;
  bytes += tr.nodes.byteLength + tr.leaves.byteLength;
  bytes += grid.blocks.byteLength + grid.squares.byteLength + grid.cells.byteLength;
  for (const a of answers) bytes += 2 * (OBJECT_BYTES + a.length * SLOT_BYTES); // records and ids
  return bytes;
}
