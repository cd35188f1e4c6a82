import { describe, expect, test } from 'vitest';
import {
  compareRegions,
  graphqlLevel,
  Level,
  levelFromGraphql,
  levelFromRest,
  restLevel,
  type RegionRecord,
} from './region.js';

describe('level words', () => {
  test('a level round-trips through its REST and GraphQL words', () => {
    expect(restLevel(Level.LEVEL_CONGRESSIONAL_DISTRICT)).toBe('congressional-district');
    expect(graphqlLevel(Level.LEVEL_CONGRESSIONAL_DISTRICT)).toBe('CONGRESSIONAL_DISTRICT');
    for (let level = Level.LEVEL_NATIONAL; level <= Level.LEVEL_PRECINCT; level += 1) {
      expect(levelFromRest(restLevel(level))).toBe(level);
      expect(levelFromGraphql(graphqlLevel(level))).toBe(level);
    }
  });

  test('unknown words name no level', () => {
    expect(levelFromGraphql('COUNTRY')).toBeUndefined();
    expect(levelFromRest('CONGRESSIONAL_DISTRICT')).toBeUndefined();
  });
});

test('regions sort by level, then slug', () => {
  const r = (slug: string, level: Level) => ({ slug, level }) as RegionRecord;
  const sorted = [
    r('region:co-cd-1', 4),
    r('region:co-denver-county', 3),
    r('region:co', 2),
    r('region:co-adams-county', 3),
  ].sort(compareRegions);
  expect(sorted.map((x) => x.slug)).toEqual([
    'region:co',
    'region:co-adams-county',
    'region:co-denver-county',
    'region:co-cd-1',
  ]);
});
