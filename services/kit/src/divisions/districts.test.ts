import { describe, expect, it } from 'vitest';
import { congressionalDistrict, legislativeDistrict, stateSlug } from './districts.js';
import { findState } from './us-states.js';

const co = findState('CO')!;
const ak = findState('02')!;
const dc = findState('dc')!;
const vt = findState('vt')!;

describe('congressionalDistrict', () => {
  it('drops leading zeros and names the OCD id', () => {
    expect(congressionalDistrict(co, '01')).toEqual({
      slug: 'region:co-cd-1',
      ocdId: 'ocd-division/country:us/state:co/cd:1',
      key: '1',
    });
    expect(congressionalDistrict(co, '001')?.slug).toBe('region:co-cd-1');
  });

  it('calls 00 at-large and 98 the delegate, both OCD at-large', () => {
    expect(congressionalDistrict(ak, '00')).toEqual({
      slug: 'region:ak-cd-at-large',
      ocdId: 'ocd-division/country:us/state:ak/cd:at-large',
      key: 'at-large',
    });
    expect(congressionalDistrict(dc, '98')).toEqual({
      slug: 'region:dc-cd-delegate',
      ocdId: 'ocd-division/country:us/district:dc/cd:at-large',
      key: 'delegate',
    });
    expect(congressionalDistrict(ak, '0')?.slug).toBe('region:ak-cd-at-large');
  });

  it('has no district for Z codes or an empty code', () => {
    expect(congressionalDistrict(co, 'ZZ')).toBeUndefined();
    expect(congressionalDistrict(co, ' ')).toBeUndefined();
  });
});

describe('legislativeDistrict', () => {
  it('numbers lose leading zeros; named districts keep their slug key', () => {
    expect(legislativeDistrict(co, 'upper', '007')).toEqual({
      slug: 'region:co-sldu-7',
      ocdId: 'ocd-division/country:us/state:co/sldu:7',
      key: '7',
    });
    expect(legislativeDistrict(vt, 'lower', 'Chittenden-1')).toEqual({
      slug: 'region:vt-sldl-chittenden-1',
      ocdId: 'ocd-division/country:us/state:vt/sldl:chittenden-1',
      key: 'chittenden-1',
    });
    expect(legislativeDistrict(co, 'lower', 'ZZZ')).toBeUndefined();
  });
});

it('stateSlug is region:<usps>', () => {
  expect(stateSlug(co)).toBe('region:co');
});
