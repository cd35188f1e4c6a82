/** What kind of first-level division a FIPS state code names; it decides the OCD id's type. */
export type StateKind = 'state' | 'district' | 'territory';

/** A state, DC or territory: its lowercase USPS code, display name and kind. */
export interface StateInfo {
  readonly fips: string;
  readonly usps: string;
  readonly name: string;
  readonly kind: StateKind;
}

const ROWS: readonly (readonly [string, string, string, StateKind?])[] = [
  ['01', 'al', 'Alabama'],
  ['02', 'ak', 'Alaska'],
  ['04', 'az', 'Arizona'],
  ['05', 'ar', 'Arkansas'],
  ['06', 'ca', 'California'],
  ['08', 'co', 'Colorado'],
  ['09', 'ct', 'Connecticut'],
  ['10', 'de', 'Delaware'],
  ['11', 'dc', 'District of Columbia', 'district'],
  ['12', 'fl', 'Florida'],
  ['13', 'ga', 'Georgia'],
  ['15', 'hi', 'Hawaii'],
  ['16', 'id', 'Idaho'],
  ['17', 'il', 'Illinois'],
  ['18', 'in', 'Indiana'],
  ['19', 'ia', 'Iowa'],
  ['20', 'ks', 'Kansas'],
  ['21', 'ky', 'Kentucky'],
  ['22', 'la', 'Louisiana'],
  ['23', 'me', 'Maine'],
  ['24', 'md', 'Maryland'],
  ['25', 'ma', 'Massachusetts'],
  ['26', 'mi', 'Michigan'],
  ['27', 'mn', 'Minnesota'],
  ['28', 'ms', 'Mississippi'],
  ['29', 'mo', 'Missouri'],
  ['30', 'mt', 'Montana'],
  ['31', 'ne', 'Nebraska'],
  ['32', 'nv', 'Nevada'],
  ['33', 'nh', 'New Hampshire'],
  ['34', 'nj', 'New Jersey'],
  ['35', 'nm', 'New Mexico'],
  ['36', 'ny', 'New York'],
  ['37', 'nc', 'North Carolina'],
  ['38', 'nd', 'North Dakota'],
  ['39', 'oh', 'Ohio'],
  ['40', 'ok', 'Oklahoma'],
  ['41', 'or', 'Oregon'],
  ['42', 'pa', 'Pennsylvania'],
  ['44', 'ri', 'Rhode Island'],
  ['45', 'sc', 'South Carolina'],
  ['46', 'sd', 'South Dakota'],
  ['47', 'tn', 'Tennessee'],
  ['48', 'tx', 'Texas'],
  ['49', 'ut', 'Utah'],
  ['50', 'vt', 'Vermont'],
  ['51', 'va', 'Virginia'],
  ['53', 'wa', 'Washington'],
  ['54', 'wv', 'West Virginia'],
  ['55', 'wi', 'Wisconsin'],
  ['56', 'wy', 'Wyoming'],
  ['60', 'as', 'American Samoa', 'territory'],
  ['66', 'gu', 'Guam', 'territory'],
  ['69', 'mp', 'Northern Mariana Islands', 'territory'],
  ['72', 'pr', 'Puerto Rico', 'territory'],
  ['74', 'um', 'U.S. Minor Outlying Islands', 'territory'],
  ['78', 'vi', 'U.S. Virgin Islands', 'territory'],
];

/** The 50 states, DC, Puerto Rico and the island areas, keyed by 2-digit FIPS code. */
export const STATES_BY_FIPS: ReadonlyMap<string, StateInfo> = new Map(
  ROWS.map(([fips, usps, name, kind]) => [fips, { fips, usps, name, kind: kind ?? 'state' }]),
);

/** The same entries keyed by lowercase USPS code. */
export const STATES_BY_USPS: ReadonlyMap<string, StateInfo> = new Map(
  [...STATES_BY_FIPS.values()].map((s) => [s.usps, s]),
);

/** Looks a state up by FIPS code (`8` and `08` both work) or USPS code (any case). */
export function findState(code: string | number): StateInfo | undefined {
  const text = String(code).trim();
  if (/^\d{1,2}$/.test(text)) return STATES_BY_FIPS.get(text.padStart(2, '0'));
  return STATES_BY_USPS.get(text.toLowerCase());
}
