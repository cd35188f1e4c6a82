import { BALLOT_ENDPOINTS } from './ballot.js';
import { CANDIDACY_ENDPOINTS } from './candidacies.js';
import { CONTEST_ENDPOINTS } from './contests.js';
import { ELECTION_DATE_ENDPOINTS } from './election-dates.js';
import type { Endpoint } from './endpoint.js';
import { GEOGRAPHY_ENDPOINTS } from './geography.js';
import { META_ENDPOINTS } from './meta-layers.js';
import { OFFICEHOLDER_ENDPOINTS } from './officeholders.js';
import { RESULTS_ENDPOINTS } from './results.js';

/** Every documented /v1 endpoint, in the order the docs list them. */
export const ENDPOINTS: readonly Endpoint[] = [
  GEOGRAPHY_ENDPOINTS.byPoint,
  GEOGRAPHY_ENDPOINTS.byAddress,
  GEOGRAPHY_ENDPOINTS.region,
  GEOGRAPHY_ENDPOINTS.boundary,
  BALLOT_ENDPOINTS.get,
  CONTEST_ENDPOINTS.list,
  CONTEST_ENDPOINTS.get,
  CANDIDACY_ENDPOINTS.list,
  CANDIDACY_ENDPOINTS.get,
  OFFICEHOLDER_ENDPOINTS.list,
  RESULTS_ENDPOINTS.get,
  ELECTION_DATE_ENDPOINTS.list,
  META_ENDPOINTS.layers,
];
