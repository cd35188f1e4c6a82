import { describe, expect, it } from 'vitest';
import { placeRegion, type RegionFacts } from './ballot-scope.js';

// A Denver point: the lookup answered state, county, congressional and legislative levels.
const point = new Map([
  ['region:co', 'state'],
  ['region:co-denver-county', 'county'],
  ['region:co-cd-1', 'congressional-district'],
  ['region:co-sldl-6', 'state-legislative-lower'],
]);

function facts(over: Partial<RegionFacts> = {}): RegionFacts {
  const level = new Map<string, string>([
    ...point,
    ['region:co-cd-2', 'congressional-district'],
    ['region:co-adams-county', 'county'],
    ['region:co-judicial-district-2', 'judicial-district'],
    ['region:co-judicial-district-1', 'judicial-district'],
    ['region:co-regional-transportation-district-a', 'special-district'],
    ['region:co-regional-transportation-district-f', 'special-district'],
    ['region:co-aurora-ward-1', 'ward'],
    ['region:co-aurora-city', 'place'],
    ['region:co-denver-county-council-district-3', 'county-commission-district'],
    ['region:co-adams-county-council-district-1', 'county-commission-district'],
  ]);
  return { point, within: new Map(), overlaps: new Map(), level, ...over };
}

describe('placing a contest region for a point', () => {
  it("a region of the point's own is on the ballot; another region of a level the lookup answered is not", () => {
    expect(placeRegion('region:co-cd-1', facts())).toEqual({ on: true });
    expect(placeRegion('region:co-cd-2', facts())).toEqual({ on: false });
    expect(placeRegion('region:co-adams-county', facts())).toEqual({ on: false });
  });

  it('with nothing known of a level without boundaries, its regions are unresolved, never guessed', () => {
    expect(placeRegion('region:co-judicial-district-2', facts())).toMatchObject({
      unresolved: expect.stringMatching(/no boundary of its level/),
    });
  });

  it("the county's precinct returns place it: within the 2nd judicial district, partly in transit district A", () => {
    const known = facts({
      within: new Map([['region:co-denver-county', ['region:co-judicial-district-2']]]),
      overlaps: new Map([['region:co-denver-county', ['region:co-regional-transportation-district-a']]]),
    });
    expect(placeRegion('region:co-judicial-district-2', known)).toEqual({ on: true });
    // Denver's returns name no other judicial district: the 1st is not Denver's.
    expect(placeRegion('region:co-judicial-district-1', known)).toEqual({ on: false });
    expect(placeRegion('region:co-regional-transportation-district-a', known)).toMatchObject({
      unresolved: expect.stringMatching(/lies partly in it/),
    });
    expect(placeRegion('region:co-regional-transportation-district-f', known)).toEqual({ on: false });
  });

  it("a district within another county is off the ballot; one within the point's county is unresolved", () => {
    const nested = facts({
      within: new Map([
        ['region:co-adams-county-council-district-1', ['region:co-adams-county']],
        ['region:co-denver-county-council-district-3', ['region:co-denver-county']],
        ['region:co-aurora-ward-1', ['region:co-aurora-city']],
        ['region:co-aurora-city', ['region:co-adams-county']],
      ]),
    });
    expect(placeRegion('region:co-adams-county-council-district-1', nested)).toEqual({ on: false });
    expect(placeRegion('region:co-aurora-ward-1', nested)).toEqual({ on: false });
    expect(placeRegion('region:co-denver-county-council-district-3', nested)).toMatchObject({
      unresolved: expect.stringMatching(/lies within a region that holds or may hold the point/),
    });
  });
});
