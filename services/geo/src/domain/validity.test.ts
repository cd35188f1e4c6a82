import { describe, expect, it } from 'vitest';
import { isIsoDate } from '@civicgraph/kit';
import { onDate, rolesOn, validityProblem, versionKey } from './validity.js';
import { Level, type RegionRecord } from './region.js';

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
const version = (slug: string, validity?: RegionRecord['validity']): RegionRecord => ({
  slug,
  name: slug,
  level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
  fips: '',
  ocdId: '',
  state: 'nc',
  geometry: square,
  ...(validity ? { validity } : {}),
});

// The 118th map serves until 2025-01-03; the 119th is used by the 2024 elections and serves from 2025-01-03.
const cd118 = version('region:nc-cd-1', { from: '2023-01-03', to: '2025-01-03', electionsTo: '2024-01-01' });
const cd119 = version('region:nc-cd-13', { from: '2025-01-03', electionsFrom: '2024-01-01' });

describe('dated boundaries', () => {
  it('accepts only real calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-1-01')).toBe(false);
    expect(isIsoDate('tomorrow')).toBe(false);
  });

  it('answers with the old map before elections move and the new one after service starts', () => {
    expect(onDate([cd118, cd119], '2023-06-01')).toEqual([{ region: cd118, roles: ['serving', 'electing'] }]);
    expect(onDate([cd118, cd119], '2025-06-01')).toEqual([{ region: cd119, roles: ['serving', 'electing'] }]);
  });

  it('between election use and service reports the electing and the serving district, each marked', () => {
    expect(onDate([cd118, cd119], '2024-11-05')).toEqual([
      { region: cd118, roles: ['serving'] },
      { region: cd119, roles: ['electing'] },
    ]);
  });

  it('treats intervals as half-open: the last day belongs to the next map', () => {
    expect(rolesOn(cd118.validity, '2025-01-02')).toEqual(['serving']);
    expect(rolesOn(cd118.validity, '2025-01-03')).toEqual([]);
    expect(rolesOn(cd119.validity, '2025-01-03')).toEqual(['serving', 'electing']);
  });

  it('keeps undated regions in force on every date', () => {
    expect(rolesOn(undefined, '1900-01-01')).toEqual(['serving', 'electing']);
  });

  it('gives each version its own key so maps can coexist', () => {
    expect(versionKey(cd118)).toBe('region:nc-cd-1@2023-01-03');
    expect(versionKey(version('region:co'))).toBe('region:co');
  });

  it('names what is wrong with an interval', () => {
    expect(validityProblem({ from: '2025-01-03', to: '2023-01-03' })?.field).toBe('valid_to');
    expect(validityProblem({ from: '2025-13-01' })?.field).toBe('valid_from');
    expect(validityProblem({ from: '2023-01-03', electionsFrom: '2024-01-01', electionsTo: '2023-01-01' })?.field).toBe(
      'elections_to',
    );
    expect(validityProblem({ from: '2023-01-03', to: '2025-01-03' })).toBeUndefined();
  });
});
