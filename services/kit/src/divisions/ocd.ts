import type { StateInfo } from './us-states.js';

const COUNTRY = 'ocd-division/country:us';

/** `ocd-division/country:us/state:co`; DC is `district:dc`, Puerto Rico `territory:pr`. */
export function stateOcdId(state: StateInfo): string {
  return `${COUNTRY}/${state.kind}:${state.usps}`;
}

/**
 * The OCD id of a division one level below a state: `<state id>/<type>:<key>`, e.g.
 * `…/state:co/county:denver`, `…/state:la/parish:orleans`, `…/state:va/place:richmond`.
 */
export function childOcdId(state: StateInfo, type: string, key: string): string {
  return `${stateOcdId(state)}/${type}:${key}`;
}
