import type { DemoRegion } from '../src/demo/generate.js';

/**
 * The districts the tests generate the demo graph over: two states, a county of each, and a
 * congressional district, with the slugs, FIPS and OCD ids the real files give them.
 */
export const TEST_DEMO_REGIONS: readonly DemoRegion[] = [
  {
    slug: 'region:co',
    name: 'Colorado',
    level: 'state',
    state: 'co',
    fips: '08',
    ocdId: 'ocd-division/country:us/state:co',
  },
  {
    slug: 'region:de',
    name: 'Delaware',
    level: 'state',
    state: 'de',
    fips: '10',
    ocdId: 'ocd-division/country:us/state:de',
  },
  {
    slug: 'region:co-denver-county',
    name: 'Denver County',
    level: 'county',
    state: 'co',
    fips: '08031',
    ocdId: 'ocd-division/country:us/state:co/county:denver',
  },
  {
    slug: 'region:co-cd-1',
    name: 'Colorado Congressional District 1',
    level: 'congressional-district',
    state: 'co',
    fips: '0801',
    ocdId: 'ocd-division/country:us/state:co/cd:1',
  },
  {
    slug: 'region:de-kent-county',
    name: 'Kent County',
    level: 'county',
    state: 'de',
    fips: '10001',
    ocdId: 'ocd-division/country:us/state:de/county:kent',
  },
];
