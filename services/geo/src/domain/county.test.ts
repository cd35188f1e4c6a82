import { describe, expect, test } from 'vitest';
import { countyIdentity, fullCountyName } from './county.js';
import { findState } from '@civicgraph/kit';

const st = (usps: string) => findState(usps)!;

describe('fullCountyName', () => {
  test.each([
    ['co', '08031', 'Denver', 'Denver County'],
    ['la', '22071', 'Orleans', 'Orleans Parish'],
    ['md', '24510', 'Baltimore', 'Baltimore city'],
    ['md', '24005', 'Baltimore', 'Baltimore County'],
    ['nv', '32510', 'Carson City', 'Carson City'],
    ['ak', '02020', 'Anchorage', 'Anchorage Municipality'],
    ['ak', '02050', 'Bethel', 'Bethel Census Area'],
    ['ak', '02110', 'Juneau', 'Juneau City and Borough'],
    ['ak', '02122', 'Kenai Peninsula', 'Kenai Peninsula Borough'],
    ['pr', '72127', 'San Juan', 'San Juan Municipio'],
    ['dc', '11001', 'District of Columbia', 'District of Columbia'],
  ])('%s %s %s → %s', (usps, fips, bare, full) => expect(fullCountyName(st(usps), fips, bare)).toBe(full));
});

describe('countyIdentity', () => {
  test.each([
    ['co', '08031', 'Denver County', 'region:co-denver-county', 'ocd-division/country:us/state:co/county:denver'],
    ['la', '22071', 'Orleans Parish', 'region:la-orleans-parish', 'ocd-division/country:us/state:la/parish:orleans'],
    ['va', '51760', 'Richmond city', 'region:va-richmond-city', 'ocd-division/country:us/state:va/place:richmond'],
    ['va', '51159', 'Richmond County', 'region:va-richmond-county', 'ocd-division/country:us/state:va/county:richmond'],
    ['mo', '29510', 'St. Louis city', 'region:mo-st-louis-city', 'ocd-division/country:us/state:mo/place:st_louis'],
    ['nv', '32510', 'Carson City', 'region:nv-carson-city', 'ocd-division/country:us/state:nv/place:carson_city'],
    [
      'ak',
      '02110',
      'Juneau City and Borough',
      'region:ak-juneau-city-and-borough',
      'ocd-division/country:us/state:ak/borough:juneau',
    ],
    [
      'ak',
      '02016',
      'Aleutians West Census Area',
      'region:ak-aleutians-west-census-area',
      'ocd-division/country:us/state:ak/census_area:aleutians_west',
    ],
    ['nm', '35013', 'Doña Ana County', 'region:nm-dona-ana-county', 'ocd-division/country:us/state:nm/county:doña_ana'],
    [
      'pr',
      '72127',
      'San Juan Municipio',
      'region:pr-san-juan-municipio',
      'ocd-division/country:us/territory:pr/municipio:san_juan',
    ],
    ['dc', '11001', 'District of Columbia', 'region:dc-district-of-columbia', 'ocd-division/country:us/district:dc'],
  ])('%s %s %s', (usps, fips, name, slug, ocdId) => {
    expect(countyIdentity(st(usps), fips, name)).toEqual({ slug, name, ocdId });
  });
});
