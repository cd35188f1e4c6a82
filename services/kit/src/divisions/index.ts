export { findState, STATES_BY_FIPS, STATES_BY_USPS, type StateInfo, type StateKind } from './us-states.js';
export { ocdKey, slugKey } from './slug.js';
export { childOcdId, stateOcdId } from './ocd.js';
export { congressionalDistrict, legislativeDistrict, stateSlug, type DistrictIdentity } from './districts.js';
