import { cellToLatLng, polygonToCells, uncompactCells } from 'h3-js';
import { describe, expect, test } from 'vitest';
import { loadUsAtlas } from '../store/us-atlas.js';
import { coverRegion } from './cell-cover.js';
import { containsPoint, polygonsOf, prepareGeometry } from './point-in-polygon.js';
import type { RegionRecord } from './region.js';

/**
 * The interior as h3 would propose it: cells whose centre h3 puts inside a ring, minus
 * boundary cells, kept when the exact test agrees. The flood must find exactly these.
 */
function interiorViaPolygonToCells(region: RegionRecord, boundary: Set<string>, res: number): string[] {
  const prepared = prepareGeometry(region.geometry);
  const candidates = new Set(polygonsOf(region.geometry).flat().flatMap((ring) => {
    try {
      return polygonToCells([ring as number[][]], res, true);
    } catch {
      return []; // h3 refuses zero-area slivers, which hold no interior cell
    }
  }));
  return [...candidates].filter((c) => {
    const [lat, lng] = cellToLatLng(c);
    return !boundary.has(c) && containsPoint(prepared, lng, lat);
  });
}

describe('coverRegion', () => {
  const regions = loadUsAtlas().filter((r) => r.state === 'co' || ['region:ak', 'region:hi', 'region:ri', 'region:mi'].includes(r.slug));

  test.each([5, 6])('at resolution %i the flooded interior equals the polygonToCells interior', (res) => {
    const differing = regions.filter((region) => {
      const cover = coverRegion(region.geometry, prepareGeometry(region.geometry), res)!;
      const flooded = new Set(uncompactCells(cover.interior, res));
      const expected = interiorViaPolygonToCells(region, cover.boundary, res);
      return flooded.size !== expected.length || expected.some((c) => !flooded.has(c)) || cover.interiorCount !== flooded.size;
    });
    expect(differing.map((r) => r.slug)).toEqual([]);
  });

  test('at a fine resolution no interior cell is a boundary cell and every interior centre passes the exact test', () => {
    const denver = regions.find((r) => r.slug === 'region:co-denver-county')!;
    const prepared = prepareGeometry(denver.geometry);
    const cover = coverRegion(denver.geometry, prepared, 7)!;
    const cells = uncompactCells(cover.interior, 7);
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.filter((c) => cover.boundary.has(c))).toEqual([]);
    expect(cells.filter((c) => !containsPoint(prepared, cellToLatLng(c)[1]!, cellToLatLng(c)[0]!))).toEqual([]);
  });
});
