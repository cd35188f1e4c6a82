import { describe, expect, it } from 'vitest';
import { simplifyGeometry, vertexCount } from './simplify.js';
import type { RegionGeometry } from './region.js';

/** A circle of radius ~1 km around Denver with n vertices. */
function circle(n: number): RegionGeometry {
  const ring = Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [-104.99 + 0.0117 * Math.cos(a), 39.74 + 0.009 * Math.sin(a)];
  });
  ring.push(ring[0]!);
  return { type: 'Polygon', coordinates: [ring] };
}

describe('simplifyGeometry', () => {
  it('drops vertices within the tolerance and keeps the ring closed', () => {
    const fine = circle(1000);
    const coarse = simplifyGeometry(fine, 50);
    expect(vertexCount(coarse)).toBeLessThan(100);
    expect(vertexCount(coarse)).toBeGreaterThanOrEqual(4);
    const ring = (coarse as unknown as { coordinates: number[][][] }).coordinates[0]!;
    expect(ring[0]).toEqual(ring[ring.length - 1]);
  });

  it('keeps more detail for a smaller tolerance', () => {
    expect(vertexCount(simplifyGeometry(circle(1000), 1))).toBeGreaterThan(
      vertexCount(simplifyGeometry(circle(1000), 50)),
    );
  });

  it('leaves the geometry alone for a tolerance of 0', () => {
    const g = circle(10);
    expect(simplifyGeometry(g, 0)).toBe(g);
  });

  it('drops holes that collapse but never the outer ring', () => {
    const hole = [
      [-104.99, 39.74],
      [-104.98999, 39.74],
      [-104.98999, 39.74001],
      [-104.99, 39.74],
    ];
    const g: RegionGeometry = {
      type: 'Polygon',
      coordinates: [(circle(100) as unknown as { coordinates: number[][][] }).coordinates[0]!, hole],
    };
    const out = simplifyGeometry(g, 5_000) as unknown as { coordinates: number[][][] };
    expect(out.coordinates).toHaveLength(1);
    expect(out.coordinates[0]!.length).toBeGreaterThanOrEqual(4);
  });
});
