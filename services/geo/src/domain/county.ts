import { childOcdId, ocdKey, slugKey, type StateInfo, stateOcdId } from '@civicgraph/kit';

/** The identity of a county or county-equivalent, derived from its full Census name. */
export interface CountyIdentity {
  readonly slug: string;
  readonly name: string;
  readonly ocdId: string;
}

/** States whose FIPS county codes 500 and up are independent cities (MD, MO, NV, VA). */
const INDEPENDENT_CITY_STATES = new Set(['24', '29', '32', '51']);

/** Alaska county-equivalents by FIPS county code, for naming them when no name table joins. */
const ALASKA_SUFFIX: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    ['016', '050', '063', '066', '070', '105', '158', '180', '198', '240', '261', '270', '290'].map((c) => [
      c,
      ' Census Area',
    ]),
  ),
  ...Object.fromEntries(['110', '220', '275', '282'].map((c) => [c, ' City and Borough'])),
  '020': ' Municipality',
  '230': ' Municipality',
};

/** Name suffix → OCD division type, longest first ("City and Borough" before "Borough"). */
const OCD_TYPES: readonly (readonly [string, string])[] = [
  [' City and Borough', 'borough'],
  [' Census Area', 'census_area'],
  [' Municipality', 'borough'],
  [' Borough', 'borough'],
  [' Parish', 'parish'],
  [' Municipio', 'municipio'],
  [' County', 'county'],
];

/** True for Baltimore city, St. Louis city, Carson City and Virginia's independent cities. */
export function isIndependentCity(countyFips: string): boolean {
  return INDEPENDENT_CITY_STATES.has(countyFips.slice(0, 2)) && Number(countyFips.slice(2)) >= 500;
}

/**
 * A full Census-style name for a county known only by its bare name (us-atlas writes
 * "Denver", "Orleans", "Baltimore"): the suffix its state uses — Parish in Louisiana,
 * Municipio in Puerto Rico, the borough / census-area word in Alaska, "city" for
 * independent cities, none for DC and the island areas, County elsewhere.
 */
export function fullCountyName(state: StateInfo, countyFips: string, bareName: string): string {
  if (isIndependentCity(countyFips)) return /\bcity$/i.test(bareName) ? bareName : `${bareName} city`;
  if (state.kind !== 'state') return state.usps === 'pr' ? `${bareName} Municipio` : bareName;
  if (state.usps === 'la') return `${bareName} Parish`;
  if (state.usps === 'ak') return bareName + (ALASKA_SUFFIX[countyFips.slice(2)] ?? ' Borough');
  return `${bareName} County`;
}

/**
 * Slug and OCD id of a county-equivalent from its full name. Slug: `region:<st>-` plus the
 * slug key of the full name (`region:co-denver-county`, `region:la-orleans-parish`,
 * `region:va-fairfax-city`). OCD id (best effort, following the published ids):
 * `county:`, `parish:`, `borough:` (Alaska boroughs, cities-and-boroughs and
 * municipalities), `census_area:` and `municipio:` keyed by the name without its suffix;
 * independent cities are `place:` (`…/state:va/place:richmond`, `…/state:nv/place:carson_city`);
 * DC's single county-equivalent shares DC's own id, `ocd-division/country:us/district:dc`.
 */
export function countyIdentity(state: StateInfo, countyFips: string, fullName: string): CountyIdentity {
  return {
    slug: `region:${state.usps}-${slugKey(fullName)}`,
    name: fullName,
    ocdId: countyOcdId(state, countyFips, fullName),
  };
}

function countyOcdId(state: StateInfo, countyFips: string, fullName: string): string {
  if (state.usps === 'dc') return stateOcdId(state);
  if (isIndependentCity(countyFips)) return childOcdId(state, 'place', ocdKey(fullName.replace(/ city$/, '')));
  const match = OCD_TYPES.find(([suffix]) => fullName.endsWith(suffix));
  if (match === undefined) return childOcdId(state, 'county', ocdKey(fullName));
  return childOcdId(state, match[1], ocdKey(fullName.slice(0, -match[0].length)));
}
