import { describe, expect, it } from 'vitest';
import { Level, type RegionRecord, type Validity } from './region.js';
import { effectiveRegions, type MapLayer } from './timeline.js';
import { onDate } from './validity.js';

const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
};
const cd = (state: string, n: number): RegionRecord => ({
  slug: `region:${state}-cd-${n}`,
  name: `${state} ${n}`,
  level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
  fips: '',
  ocdId: '',
  state,
  geometry: square,
});
const map = (state: string, districts: number[], validity: Validity | undefined, rank = 1, scale = 0): MapLayer => ({
  level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
  state,
  validity,
  rank,
  scale,
  regions: districts.map((n) => ({ ...cd(state, n), ...(validity === undefined ? {} : { validity }) })),
});
const V118 = { from: '2023-01-03', electionsFrom: '2022-01-01' };
const V119 = { from: '2025-01-03', electionsFrom: '2024-01-01' };
/** slug@from → [roles] on a date. */
const on = (regions: RegionRecord[], date: string) =>
  onDate(regions, date).map((d) => `${d.region.slug}@${d.region.validity?.from ?? '-'} ${d.roles.join('+')}`);

describe('one timeline per level and state', () => {
  it('ends the older map where the newer one starts: serving at its valid_from, electing at its elections_from', () => {
    const regions = effectiveRegions([map('ny', [1, 27], V118), map('ny', [1], V119)]);
    expect(regions.find((r) => r.slug === 'region:ny-cd-1' && r.validity?.from === '2023-01-03')?.validity).toEqual({
      from: '2023-01-03',
      to: '2025-01-03',
      electionsFrom: '2022-01-01',
      electionsTo: '2024-01-01',
    });
    expect(on(regions, '2023-06-01')).toEqual([
      'region:ny-cd-1@2023-01-03 serving+electing',
      'region:ny-cd-27@2023-01-03 serving+electing',
    ]);
    expect(on(regions, '2024-06-01')).toEqual([
      'region:ny-cd-1@2023-01-03 serving',
      'region:ny-cd-27@2023-01-03 serving',
      'region:ny-cd-1@2025-01-03 electing',
    ]);
    // A district the new map no longer has ends with its map.
    expect(on(regions, '2025-06-01')).toEqual(['region:ny-cd-1@2025-01-03 serving+electing']);
  });

  it('never serves two versions of one slug on a date, whatever the order the maps arrive in', () => {
    const layers = [
      map('nh', [1, 2], undefined, 0),
      map('nh', [1, 2], V119, 1),
      map('nh', [1, 2], { from: '2023-01-03' }, 2),
    ];
    for (const order of [layers, [...layers].reverse()]) {
      const regions = effectiveRegions(order);
      for (const date of [
        '2000-01-01',
        '2022-12-31',
        '2023-01-03',
        '2024-06-01',
        '2024-11-05',
        '2025-01-03',
        '2030-01-01',
      ]) {
        for (const role of ['serving', 'electing'] as const) {
          const slugs = onDate(regions, date)
            .filter((d) => d.roles.includes(role))
            .map((d) => d.region.slug);
          expect(slugs, `${role} on ${date}`).toEqual(['region:nh-cd-1', 'region:nh-cd-2']);
        }
      }
    }
  });

  it('an undated map serves until the first dated map of its level and state', () => {
    const regions = effectiveRegions([map('nh', [1], undefined, 0), map('nh', [1], { from: '2023-01-03' }, 2)]);
    expect(on(regions, '2022-06-01')).toEqual(['region:nh-cd-1@- serving+electing']);
    expect(on(regions, '2024-06-01')).toEqual(['region:nh-cd-1@2023-01-03 serving+electing']);
  });

  it('of two maps dated the same day, serves only the higher-ranked one', () => {
    const imported = map('co', [1], V119, 2);
    const regions = effectiveRegions([map('co', [1, 2], V119, 1), imported]);
    expect(regions).toEqual(imported.regions);
  });

  it('leaves other states alone', () => {
    const regions = effectiveRegions([
      map('nh', [1], undefined, 0),
      map('hi', [1], undefined, 0),
      map('nh', [1], { from: '2023-01-03' }, 2),
    ]);
    expect(on(regions, '2024-06-01')).toEqual([
      'region:nh-cd-1@2023-01-03 serving+electing',
      'region:hi-cd-1@- serving+electing',
    ]);
  });

  it('keeps an end given before the next map starts, leaving a gap', () => {
    const regions = effectiveRegions([
      map('vt', [1], { from: '2013-01-03', to: '2020-01-01' }),
      map('vt', [1], { from: '2023-01-03' }),
    ]);
    expect(regions[0]?.validity).toEqual({ from: '2013-01-03', to: '2020-01-01', electionsTo: '2020-01-01' });
    expect(on(regions, '2021-06-01')).toEqual([]);
  });

  it('drops a version that no longer serves or elects on any date', () => {
    // Superseded the day it would have started, elections included.
    const regions = effectiveRegions([
      map('al', [7], { from: '2025-01-03' }, 1),
      map('al', [7], { from: '2025-01-04', electionsFrom: '2024-01-01' }, 2),
    ]);
    expect(regions.map((r) => r.validity?.from)).toEqual(['2025-01-03', '2025-01-04']);
    const gone = effectiveRegions([
      map('al', [7], { from: '2025-01-03', electionsFrom: '2025-01-03' }, 1),
      map('al', [7], { from: '2025-01-03', electionsFrom: '2024-01-01' }, 2),
    ]);
    expect(gone.map((r) => r.validity?.from)).toEqual(['2025-01-03']);
  });
});

describe('a coarser map never supersedes a finer one', () => {
  const TIGER = V118; // full resolution, no end: also the 119th Congress map
  const CB20M = 20_000_000;

  it('a full-resolution map with no end keeps serving and electing past a later 1:20M map, which is dropped', () => {
    const regions = effectiveRegions([map('co', [1, 8], TIGER), map('co', [1, 8], V119, 2, CB20M)]);
    expect(regions.map((r) => `${r.slug}@${r.validity?.from}`)).toEqual([
      'region:co-cd-1@2023-01-03',
      'region:co-cd-8@2023-01-03',
    ]);
    expect(regions[0]?.validity).toEqual(TIGER);
    expect(on(regions, '2026-06-01')).toEqual([
      'region:co-cd-1@2023-01-03 serving+electing',
      'region:co-cd-8@2023-01-03 serving+electing',
    ]);
  });

  it('a full-resolution map whose end is declared hands over to the 1:20M map from its own dates', () => {
    const redrawn = { ...V118, to: '2025-01-03', electionsTo: '2024-01-01' };
    const regions = effectiveRegions([map('nc', [1, 14], redrawn), map('nc', [1, 14], V119, 2, CB20M)]);
    expect(on(regions, '2023-06-01')).toEqual([
      'region:nc-cd-1@2023-01-03 serving+electing',
      'region:nc-cd-14@2023-01-03 serving+electing',
    ]);
    expect(on(regions, '2024-06-01')).toEqual([
      'region:nc-cd-1@2023-01-03 serving',
      'region:nc-cd-14@2023-01-03 serving',
      'region:nc-cd-1@2025-01-03 electing',
      'region:nc-cd-14@2025-01-03 electing',
    ]);
    expect(on(regions, '2026-06-01')).toEqual([
      'region:nc-cd-1@2025-01-03 serving+electing',
      'region:nc-cd-14@2025-01-03 serving+electing',
    ]);
  });

  it('a finer map supersedes a coarser one as any newer map does, and wins a tie on the same day whatever its rank', () => {
    const coarse = map('nh', [1], V118, 5, CB20M);
    const fine = map('nh', [1], V119, 1);
    expect(on(effectiveRegions([coarse, fine]), '2026-06-01')).toEqual(['region:nh-cd-1@2025-01-03 serving+electing']);
    expect(on(effectiveRegions([coarse, fine]), '2023-06-01')).toEqual(['region:nh-cd-1@2023-01-03 serving+electing']);
    const sameDay = effectiveRegions([map('nh', [1], V119, 9, CB20M), fine]);
    expect(sameDay).toEqual(fine.regions);
  });

  it("a coarse map starting before a finer one ends serves from the finer map's end", () => {
    const regions = effectiveRegions([
      map('ga', [1], { from: '2023-01-03', to: '2024-06-01' }),
      map('ga', [1], { from: '2024-01-01' }, 1, CB20M),
    ]);
    expect(regions[1]?.validity).toMatchObject({ from: '2024-06-01' });
    expect(on(regions, '2024-03-01')).toEqual(['region:ga-cd-1@2023-01-03 serving+electing']);
    expect(on(regions, '2024-07-01')).toEqual(['region:ga-cd-1@2024-06-01 serving+electing']);
  });
});
