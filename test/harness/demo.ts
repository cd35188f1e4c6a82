import type { DemoRegion } from '@civicgraph/graph';
import { TEST_DEMO_REGIONS } from '../../services/graph/test/demo-regions.js';

/** The day the REST suites' demo graph is generated as of. */
export const DEMO_TODAY = '2026-11-22';
/** The demo's general election days around DEMO_TODAY. */
export const NEXT_GENERAL = '2028-11-07';
export const PAST_GENERAL = '2026-11-03';

/**
 * Two states and a county of each, matching slugs the geo service's us-atlas regions use:
 * the graph tests' demo regions without their congressional district.
 */
export const DEMO_REGIONS: DemoRegion[] = TEST_DEMO_REGIONS.filter((r) => r.level !== 'congressional-district');

/** The candidacy fields only keys with the `contact` entitlement see (REST names). */
export const CONTACT_FIELDS = ['campaign_emails', 'campaign_phones', 'campaign_team'] as const;

/** The officeholder fields only keys with the `contact` entitlement see (REST names). */
export const OFFICEHOLDER_CONTACT_FIELDS = ['contact_offices', 'contact_emails', 'contact_links'] as const;
