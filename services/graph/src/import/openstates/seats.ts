import type { PlainDraft } from '../../domain/drafts.js';
import { legislativeRegion } from '../shared/regions.js';
import { regionOf, stateOf, titleCase, type ServedRegion } from '../shared/served-regions.js';
import { legislatorTitle, statedOffice } from '../shared/stated-offices.js';
import { parseJurisdiction, type Jurisdiction } from './jurisdictions.js';
import type { Role } from './person-record.js';
import type { PlaceTable } from './places.js';

/** The office a role holds and the region it serves. */
export interface Seat {
  office: PlainDraft<'office'>;
  region: ServedRegion;
}

type Found = Seat | { reason: string };

/**
 * Statewide offices by Open States role type, written as election returns write the
 * office (MEDSL's `LIEUTENANT GOVERNOR`), so the office is the node the results importer
 * drafts for the same seat: `office:co-governor`, `office:co-lieutenant-governor`.
 */
const STATEWIDE: Readonly<Record<string, string>> = {
  governor: 'GOVERNOR',
  lt_governor: 'LIEUTENANT GOVERNOR',
  'secretary of state': 'SECRETARY OF STATE',
  'attorney general': 'ATTORNEY GENERAL',
  'chief election officer': 'CHIEF ELECTION OFFICER',
};

const KNOWN_TYPES = ['upper', 'lower', 'legislature', ...Object.keys(STATEWIDE), 'mayor'];

/**
 * The seat an Open States role is held in: a state legislative seat of its district
 * (`upper`, `lower`; Nebraska's unicameral `legislature` sits in the upper-house
 * districts, as the Census draws them), a statewide office of the state government, or the
 * mayoralty of a Census place. A role this cannot place — an unknown type, a jurisdiction
 * that is not a US government, a place the Census file does not list — is a reason a data
 * editor can act on, never a guess at a region.
 */
export function seatOfRole(role: Role, places: PlaceTable | undefined): Found {
  const j = parseJurisdiction(role.jurisdiction);
  if (j === undefined)
    return { reason: `jurisdiction "${role.jurisdiction}" is not a US government's ocd-jurisdiction id` };
  if (role.type === 'mayor') return mayoralty(j, places);
  if (!KNOWN_TYPES.includes(role.type))
    return { reason: `role type "${role.type}" is not one this importer maps (${KNOWN_TYPES.join(', ')})` };
  if (j.below.length > 0)
    return { reason: `a ${role.type} role in ${role.jurisdiction}: expected the state government's jurisdiction` };
  const statewide = STATEWIDE[role.type];
  if (statewide !== undefined) return seatOf(stateOf(j.state), titleCase(statewide), 'state');
  return legislativeSeat(j, role.type === 'lower' ? 'lower' : 'upper', role);
}

function legislativeSeat(j: Jurisdiction, chamber: 'upper' | 'lower', role: Role): Found {
  if (j.state.kind !== 'state') return { reason: `${j.state.name} has no state legislative districts` };
  if (role.district === undefined) return { reason: `${role.type}: no district` };
  const draft = legislativeRegion(j.state, chamber, role.district);
  if (draft === undefined) return { reason: `district "${role.district}" names no ${chamber}-house district` };
  return seatOf(regionOf(draft), legislatorTitle(chamber), 'state');
}

function mayoralty(j: Jurisdiction, places: PlaceTable | undefined): Found {
  const [step, ...deeper] = j.below;
  if (step?.[0] !== 'place' || deeper.length > 0)
    return { reason: `a mayor of ${j.division}: only Census places (…/place:<name>) have mayors here` };
  if (places === undefined)
    return {
      reason: `no Census place table to find ${j.division} in: pass --places <country-us folder or us_census_places.csv>`,
    };
  const draft = places.region(j.division);
  if ('reason' in draft) return draft;
  return seatOf(regionOf(draft), 'Mayor', 'municipal');
}

function seatOf(region: ServedRegion, name: string, tier: 'state' | 'municipal'): Seat {
  return { office: statedOffice(region, name, tier), region };
}
