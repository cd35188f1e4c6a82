import { findState, type StateInfo } from '@civicgraph/kit';
import { parseDate } from '../shared/dates.js';
import { fecParty, type PartyStatement } from '../shared/parties.js';
import { houseSeats } from './apportionment.js';
import type { WeballColumn } from './layout.js';
import { fecName, type PersonName } from './names.js';

/** A weball row that passed every check, in the terms the drafts need. */
export interface FecCandidate {
  /** CAND_ID, e.g. `H8CO02160`. */
  id: string;
  name: PersonName;
  office: 'H' | 'S' | 'P';
  /** Undefined for President. */
  state?: StateInfo;
  /** House only: the district code as `congressionalRegion` reads it (`01`, `00`). */
  district?: string;
  /** I (incumbent), C (challenger), O (open seat); '' when the FEC left it empty. */
  ici: 'I' | 'C' | 'O' | '';
  party: PartyStatement;
  /** CVG_END_DT as YYYY-MM-DD; null when empty. */
  coverageEnd: string | null;
}

const CAND_ID = /^[HS]\d[A-Z]{2}\d{5}$|^P\d{8}$/;

/**
 * Checks one row's columns against the FEC layout and the cycle's geography. The reason,
 * when there is one, names the column and value so a data editor can fix the row.
 */
export function readCandidate(row: Record<WeballColumn, string>, cycle: number): FecCandidate | { reason: string } {
  const id = row.CAND_ID.toUpperCase();
  if (!CAND_ID.test(id))
    return { reason: `CAND_ID "${row.CAND_ID}" is not an FEC candidate id (H8CO02160, S0CO00211, P80000268)` };
  if (row.CAND_NAME === '') return { reason: 'CAND_NAME is empty' };
  const ici = row.CAND_ICI.toUpperCase();
  if (!['I', 'C', 'O', ''].includes(ici)) return { reason: `CAND_ICI "${row.CAND_ICI}" is not I, C or O` };
  if (row.CAND_PTY_AFFILIATION === '') return { reason: 'CAND_PTY_AFFILIATION is empty' };
  const party = fecParty(row.CAND_PTY_AFFILIATION);
  if (party === undefined)
    return { reason: `CAND_PTY_AFFILIATION "${row.CAND_PTY_AFFILIATION}" is not an FEC party code` };
  const coverageEnd = row.CVG_END_DT === '' ? null : parseDate(row.CVG_END_DT);
  if (coverageEnd === undefined) return { reason: `CVG_END_DT "${row.CVG_END_DT}" is not a date` };
  const base = { id, name: fecName(row.CAND_NAME), ici: ici as FecCandidate['ici'], party, coverageEnd };
  const office = id[0] as FecCandidate['office'];
  if (office === 'P')
    return cycle % 4 === 0
      ? { ...base, office }
      : { reason: `CAND_ID ${id} runs for President, and ${cycle} has no presidential election` };
  const state = /^[A-Z]{2}$/i.test(row.CAND_OFFICE_ST) ? findState(row.CAND_OFFICE_ST) : undefined;
  if (state === undefined) return { reason: `CAND_OFFICE_ST "${row.CAND_OFFICE_ST}" is not a state` };
  if (office === 'S')
    return state.kind === 'state'
      ? { ...base, office, state }
      : { reason: `CAND_OFFICE_ST "${row.CAND_OFFICE_ST}": ${state.name} elects no senators` };
  const district = houseDistrict(row.CAND_OFFICE_DISTRICT, state, cycle);
  return 'reason' in district ? district : { ...base, office, state, district: district.code };
}

/**
 * A House district code checked against the seats the state has in the cycle. A state with
 * one seat (or DC, a territory) elects it at large, which the FEC writes `00` and now and
 * then `01`; a state with several has no `00` seat.
 */
function houseDistrict(text: string, state: StateInfo, cycle: number): { code: string } | { reason: string } {
  if (text === '') return { reason: 'CAND_OFFICE_DISTRICT is empty' };
  if (!/^\d{1,2}$/.test(text)) return { reason: `CAND_OFFICE_DISTRICT "${text}" is not a district number` };
  const n = Number(text);
  const seats = houseSeats(state.usps, cycle);
  if (seats === 1 || state.kind !== 'state')
    return n <= 1
      ? { code: '00' }
      : { reason: `CAND_OFFICE_DISTRICT "${text}": ${state.name} elects one member, at large` };
  if (n === 0)
    return seats === undefined
      ? { code: '00' }
      : { reason: `CAND_OFFICE_DISTRICT "${text}" (at large): ${state.name} has ${seats} districts in ${cycle}` };
  if (seats !== undefined && n > seats)
    return { reason: `CAND_OFFICE_DISTRICT "${text}": ${state.name} has ${seats} districts in ${cycle}` };
  return { code: text.padStart(2, '0') };
}
