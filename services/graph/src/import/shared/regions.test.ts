import { findState } from '@civicgraph/kit';
import { describe, expect, it } from 'vitest';
import { congressionalRegion, legislativeRegion, nationalRegion, reference, stateRegion } from './regions.js';

const co = findState('co')!;
const dc = findState('dc')!;
const pr = findState('pr')!;
const vt = findState('vt')!;

describe('region drafts named as the geo service names them', () => {
  it('states carry their USPS scope, FIPS and OCD id', () => {
    expect(stateRegion(co)).toEqual({
      kind: 'region',
      slug: 'region:co',
      state: 'co',
      tier: '',
      data: {
        name: 'Colorado',
        level: 'state',
        fips: '08',
        ocdId: 'ocd-division/country:us/state:co',
        aliases: [],
        population: null,
      },
    });
    expect(stateRegion(dc).data.ocdId).toBe('ocd-division/country:us/district:dc');
    expect(nationalRegion()).toMatchObject({
      slug: 'region:us',
      state: '',
      data: { level: 'national', ocdId: 'ocd-division/country:us' },
    });
  });

  it('congressional districts drop leading zeros; 00 is at large in a state and the delegate in DC and the territories', () => {
    expect(congressionalRegion(co, '01')).toMatchObject({
      slug: 'region:co-cd-1',
      state: 'co',
      data: { name: 'Colorado Congressional District 1', fips: '0801', level: 'congressional-district' },
    });
    expect(congressionalRegion(findState('ak')!, '00')).toMatchObject({
      slug: 'region:ak-cd-at-large',
      data: { fips: '0200', ocdId: 'ocd-division/country:us/state:ak/cd:at-large' },
    });
    expect(congressionalRegion(dc, '00')).toMatchObject({
      slug: 'region:dc-cd-delegate',
      data: { fips: '1198', ocdId: 'ocd-division/country:us/district:dc/cd:at-large' },
    });
    expect(congressionalRegion(pr, '98')?.slug).toBe('region:pr-cd-delegate');
  });

  it('has no congressional district for an empty or non-numeric code', () => {
    expect(congressionalRegion(co, '')).toBeUndefined();
    expect(congressionalRegion(co, 'ZZ')).toBeUndefined();
    expect(congressionalRegion(co, '1A')).toBeUndefined();
  });

  it('legislative districts: numbered ones get a Census GEOID, named ones none', () => {
    expect(legislativeRegion(co, 'upper', '007')).toMatchObject({
      slug: 'region:co-sldu-7',
      data: { fips: '08007', level: 'state-legislative-upper', name: 'Colorado State Senate District 7' },
    });
    expect(legislativeRegion(vt, 'lower', 'Chittenden-1')).toMatchObject({
      slug: 'region:vt-sldl-chittenden-1',
      data: { fips: '', level: 'state-legislative-lower' },
    });
  });

  it('a reference is the same draft marked create-only', () => {
    expect(reference(stateRegion(co))).toEqual({ ...stateRegion(co), createOnly: true });
  });
});
