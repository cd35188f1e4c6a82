import type { StateInfo } from '@civicgraph/kit';
import { parseOcdId } from '../ocd/ocd-id.js';

/** An Open States jurisdiction taken apart: the division it governs. */
export interface Jurisdiction {
  /** `ocd-division/country:us/state:co/place:denver`. */
  division: string;
  state: StateInfo;
  /** Steps below the state: `[]` for the state government, `[['place', 'denver']]` for a city's. */
  below: [type: string, key: string][];
}

const PREFIX = 'ocd-jurisdiction/';
const SUFFIX = '/government';

/**
 * `ocd-jurisdiction/country:us/state:co/place:denver/government` → the division
 * `ocd-division/country:us/state:co/place:denver`: Open States keys a government by the
 * OCD division it governs, so the division id is read off, not looked up. Undefined when
 * the id is not a US government's jurisdiction of a known state, DC or territory.
 */
export function parseJurisdiction(id: string): Jurisdiction | undefined {
  if (!id.startsWith(PREFIX) || !id.endsWith(SUFFIX)) return undefined;
  const division = `ocd-division/${id.slice(PREFIX.length, -SUFFIX.length)}`;
  const ocd = parseOcdId(division);
  if (ocd?.state === undefined) return undefined;
  return { division, state: ocd.state, below: ocd.below };
}
