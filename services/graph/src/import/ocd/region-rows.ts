import { slugKey, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';
import { parseSlug } from '../../model/slugs.js';
import { parseDate } from '../shared/dates.js';
import { congressionalRegion, legislativeRegion, nationalRegion, stateRegion } from '../shared/regions.js';
import type { OcdFileKind } from './files.js';
import { ocdKeyText, parseOcdId, type OcdId } from './ocd-id.js';

/** The columns of an OCD row this importer reads ('' when the file has no such column). */
export interface OcdRow {
  id: string;
  name: string;
  geoid: string;
  sameAs: string;
  validThrough: string;
}

export interface RowOptions {
  /** YYYY-MM-DD: rows valid only through an earlier day are skipped as expired. */
  asOf: string;
  /** Import Census places and county subdivisions (not only counties) from the places file. */
  places: boolean;
}

type RegionDraft = PlainDraft<'region'>;

/** A row's region and the region it lies WITHIN; a reason it cannot be used; or nothing to import. */
export type RowOutcome = { region: RegionDraft; parent: RegionDraft | undefined } | { reason: string } | { skip: true };

const COUNTY_TYPES = new Set(['county', 'parish', 'borough', 'census_area', 'municipio']);

/**
 * One OCD row as a region: slug as the geo service names it, the file's own name and id,
 * FIPS from `census_geoid` or derived the geo service's way where the file has none.
 */
export function regionFromRow(kind: Exclude<OcdFileKind, 'aliases'>, row: OcdRow, options: RowOptions): RowOutcome {
  const expiry = expired(row, options.asOf);
  if (expiry !== undefined) return expiry;
  const ocd = parseOcdId(row.id);
  if (ocd === undefined) return { reason: `"${row.id}" is not a US OCD division id of a known state, DC or territory` };
  if (row.name.trim() === '') return { reason: `${row.id} has no name` };
  const outcome = mapKind(kind, ocd, row, options);
  if (!('region' in outcome)) return outcome;
  if (parseSlug(outcome.region.slug) === undefined)
    return { reason: `"${row.name}" gives no usable slug (${outcome.region.slug})` };
  outcome.region.data = { ...outcome.region.data, name: row.name.trim(), ocdId: ocd.id };
  return outcome;
}

function expired(row: OcdRow, asOf: string): RowOutcome | undefined {
  if (row.validThrough.trim() === '') return undefined;
  const through = parseDate(row.validThrough);
  if (through === undefined) return { reason: `validThrough "${row.validThrough}" is not a date` };
  return through < asOf ? { reason: `expired: ${row.id} was valid through ${through}` } : undefined;
}

function mapKind(kind: Exclude<OcdFileKind, 'aliases'>, ocd: OcdId, row: OcdRow, options: RowOptions): RowOutcome {
  const state = ocd.state;
  if (state === undefined)
    return kind === 'states'
      ? { region: nationalRegion(), parent: undefined }
      : { reason: `${row.id} is the country, not a ${kind} division` };
  if (kind === 'states' || kind === 'territories') return stateRow(state, ocd, row);
  const [step, ...deeper] = ocd.below;
  if (step === undefined) return { reason: `${row.id} is a state, not a ${kind} division` };
  const parent = stateRegion(state);
  switch (kind) {
    case 'congressional':
      return deeper.length === 0 && step[0] === 'cd'
        ? congressionalRow(state, step[1], row, parent)
        : wrongType(row, 'cd');
    case 'sldu':
    case 'sldl':
      return deeper.length === 0 && (step[0] === kind || isDcWard(state, kind, step[0]))
        ? legislativeRow(state, kind, step[1], row, parent)
        : wrongType(row, kind);
    case 'places':
      return placesRow(state, ocd, row, parent, options);
  }
}

/**
 * DC's council wards stand in the upper-house file (the Census draws them as DC's SLDU),
 * so they get the slug the geo service gives DC's SLDU features: `region:dc-sldu-1`.
 */
function isDcWard(state: StateInfo, kind: 'sldu' | 'sldl', type: string): boolean {
  return state.usps === 'dc' && kind === 'sldu' && type === 'ward';
}

function wrongType(row: OcdRow, type: string): RowOutcome {
  return { reason: `${row.id} is not a ${type}: division` };
}

function stateRow(state: StateInfo, ocd: OcdId, row: OcdRow): RowOutcome {
  if (ocd.below.length > 0) return { reason: `${row.id} is not a state, DC or territory` };
  if (row.sameAs.trim() !== '')
    return { reason: `${row.id} is the same division as ${row.sameAs.trim()}: imported under that id` };
  return { region: stateRegion(state), parent: nationalRegion() };
}

/** `cd:1`, `cd:at-large` (DC and the territories: their delegate district, as the Census numbers it 98). */
function congressionalRow(state: StateInfo, key: string, row: OcdRow, parent: RegionDraft): RowOutcome {
  const code = key === 'at-large' ? '00' : key;
  const region = /^\d+$/.test(code) ? congressionalRegion(state, code) : undefined;
  if (region === undefined) return { reason: `cd:${key} is not a district number or at-large` };
  const geoid = /^cd-(\d{4})$/.exec(row.geoid.trim())?.[1];
  if (geoid !== undefined) region.data = { ...region.data, fips: geoid };
  return { region, parent };
}

/** `sldu:7`, `sldl:12b`, and the named districts of VT, NH and MA (`sldl:1st_barnstable`). */
function legislativeRow(
  state: StateInfo,
  kind: 'sldu' | 'sldl',
  key: string,
  row: OcdRow,
  parent: RegionDraft,
): RowOutcome {
  const region = legislativeRegion(state, kind === 'sldu' ? 'upper' : 'lower', ocdKeyText(key));
  return region === undefined ? { reason: `${kind}:${key} names no district` } : { region, parent };
}

/**
 * Counties (and parishes, boroughs, census areas, municipios) always; places and county
 * subdivisions only with the `places` option — 36,000 rows most deployments do not need.
 */
function placesRow(state: StateInfo, ocd: OcdId, row: OcdRow, parent: RegionDraft, options: RowOptions): RowOutcome {
  const fips = /^place-(\d{5}|\d{7}|\d{10})$/.exec(row.geoid.trim())?.[1];
  const last = ocd.below[ocd.below.length - 1]!;
  const isCounty = ocd.below.length === 1 && COUNTY_TYPES.has(last[0]);
  if (isCounty)
    return fips?.length === 5
      ? { region: local(state, 'county', row, fips), parent }
      : { reason: `census_geoid "${row.geoid}" is not a county FIPS (place-SSCCC)` };
  if (!options.places || last[0] !== 'place') return { skip: true };
  return fips === undefined || fips.length === 5
    ? { reason: `census_geoid "${row.geoid}" is not a place FIPS (place-SSPPPPP)` }
    : { region: local(state, 'place', row, fips), parent };
}

/** `region:<st>-<slug key of the full name>`, as the geo service names counties and places. */
function local(state: StateInfo, level: Level, row: OcdRow, fips: string): RegionDraft {
  return {
    kind: 'region',
    slug: `region:${state.usps}-${slugKey(row.name)}`,
    state: state.usps,
    tier: '',
    data: { name: row.name.trim(), level, fips, ocdId: row.id.trim(), aliases: [], population: null },
  };
}
