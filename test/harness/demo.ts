import type { DemoRegion } from '@civicgraph/graph';

/** The day the REST suites' demo graph is generated as of. */
export const DEMO_TODAY = '2026-11-22';
/** The demo's general election days around DEMO_TODAY. */
export const NEXT_GENERAL = '2028-11-07';
export const PAST_GENERAL = '2026-11-03';

/** Two states and a county of each, matching slugs the geo service's us-atlas regions use. */
export const DEMO_REGIONS: DemoRegion[] = [
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
    slug: 'region:de-kent-county',
    name: 'Kent County',
    level: 'county',
    state: 'de',
    fips: '10001',
    ocdId: 'ocd-division/country:us/state:de/county:kent',
  },
];

/** The candidacy fields only keys with the `contact` entitlement see (REST names). */
export const CONTACT_FIELDS = ['campaign_emails', 'campaign_phones', 'campaign_team'] as const;

/** The officeholder fields only keys with the `contact` entitlement see (REST names). */
export const OFFICEHOLDER_CONTACT_FIELDS = ['contact_offices', 'contact_emails', 'contact_links'] as const;
