import { slugKey } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import { slug } from '../../model/slugs.js';

/** A party node's identity: `party:<key>`. */
export interface PartyInfo {
  key: string;
  name: string;
  /** The FEC code when the FEC has one, else ''. */
  abbreviation: string;
}

/**
 * What a party code says about a candidate: a party; explicitly none (`NNE`, `NPA`,
 * unaffiliated: the party claim is null); or nothing usable (`UNK`, `OTH`, `W`: no party
 * claim is made).
 */
export type PartyStatement = { party: PartyInfo } | { none: true } | { unstated: true };

/**
 * FEC party codes (the FEC data dictionary's "party code descriptions"), `[code, key, name]`.
 * Keys are the party's name without "Party": `party:democratic`, `party:libertarian`.
 */
const PARTIES: readonly (readonly [string, string, string])[] = [
  ['ACE', 'ace', 'Ace Party'],
  ['AKI', 'alaskan-independence', 'Alaskan Independence Party'],
  ['AIC', 'american-independent-conservative', 'American Independent Conservative'],
  ['AIP', 'american-independent', 'American Independent Party'],
  ['AMP', 'american', 'American Party'],
  ['APF', 'peoples-alliance', "People's Alliance Party"],
  ['AE', 'americans-elect', 'Americans Elect'],
  ['CIT', 'citizens', "Citizens' Party"],
  ['CMD', 'commandments', 'Commandments Party'],
  ['CMP', 'commonwealth', 'Commonwealth Party of the U.S.'],
  ['COM', 'communist', 'Communist Party'],
  ['CNC', 'concerned-citizens', 'Concerned Citizens Party of Connecticut'],
  ['CRV', 'conservative', 'Conservative Party'],
  ['CON', 'constitution', 'Constitution Party'],
  ['CST', 'constitutional', 'Constitutional'],
  ['COU', 'country', 'Country'],
  ['DCG', 'dc-statehood-green', 'D.C. Statehood Green Party'],
  ['DNL', 'democratic-nonpartisan-league', 'Democratic-Nonpartisan League'],
  ['DEM', 'democratic', 'Democratic Party'],
  ['D/C', 'democratic-conservative', 'Democratic/Conservative'],
  ['DFL', 'democratic-farmer-labor', 'Democratic-Farmer-Labor'],
  ['DGR', 'desert-green', 'Desert Green Party'],
  ['FED', 'federalist', 'Federalist'],
  ['FLP', 'freedom-labor', 'Freedom Labor Party'],
  ['FRE', 'freedom', 'Freedom Party'],
  ['GWP', 'george-wallace', 'George Wallace Party'],
  ['GRT', 'grassroots', 'Grassroots'],
  ['GRE', 'green', 'Green Party'],
  ['GR', 'green-rainbow', 'Green-Rainbow'],
  ['HRP', 'human-rights', 'Human Rights Party'],
  ['IDP', 'independence', 'Independence Party'],
  ['IND', 'independent', 'Independent'],
  ['IAP', 'independent-american', 'Independent American Party'],
  ['ICD', 'independent-conservative-democratic', 'Independent Conservative Democratic'],
  ['IGR', 'independent-green', 'Independent Green'],
  ['IP', 'independent-party', 'Independent Party'],
  ['IDE', 'independent-party-of-delaware', 'Independent Party of Delaware'],
  ['IGD', 'industrial-government', 'Industrial Government Party'],
  ['JCN', 'jewish-christian-national', 'Jewish/Christian National'],
  ['JUS', 'justice', 'Justice Party'],
  ['LRU', 'la-raza-unida', 'La Raza Unida'],
  ['LBR', 'labor', 'Labor Party'],
  ['LFT', 'less-federal-taxes', 'Less Federal Taxes'],
  ['LBL', 'liberal', 'Liberal Party'],
  ['LIB', 'libertarian', 'Libertarian Party'],
  ['LBU', 'liberty-union', 'Liberty Union Party'],
  ['MTP', 'mountain', 'Mountain Party'],
  ['NDP', 'national-democratic', 'National Democratic'],
  ['NLP', 'natural-law', 'Natural Law Party'],
  ['NA', 'new-alliance', 'New Alliance'],
  ['NJC', 'new-jersey-conservative', 'New Jersey Conservative Party'],
  ['NPP', 'new-progressive', 'New Progressive Party'],
  ['OE', 'one-earth', 'One Earth Party'],
  ['PG', 'pacific-green', 'Pacific Green'],
  ['PSL', 'socialism-and-liberation', 'Party for Socialism and Liberation'],
  ['PAF', 'peace-and-freedom', 'Peace and Freedom'],
  ['PFP', 'peace-and-freedom-party', 'Peace and Freedom Party'],
  ['PFD', 'peace-freedom', 'Peace Freedom Party'],
  ['POP', 'people-over-politics', 'People Over Politics'],
  ['PPY', 'peoples', "People's Party"],
  ['PCH', 'personal-choice', 'Personal Choice Party'],
  ['PPD', 'popular-democratic', 'Popular Democratic Party'],
  ['PRO', 'progressive', 'Progressive Party'],
  ['NAP', 'prohibition', 'Prohibition Party'],
  ['PRI', 'puerto-rican-independence', 'Puerto Rican Independence Party'],
  ['RUP', 'raza-unida', 'Raza Unida Party'],
  ['REF', 'reform', 'Reform Party'],
  ['REP', 'republican', 'Republican Party'],
  ['RES', 'resource', 'Resource Party'],
  ['RTL', 'right-to-life', 'Right to Life'],
  ['SEP', 'socialist-equality', 'Socialist Equality Party'],
  ['SLP', 'socialist-labor', 'Socialist Labor Party'],
  ['SUS', 'socialist', 'Socialist Party'],
  ['SOC', 'socialist-usa', 'Socialist Party U.S.A.'],
  ['SWP', 'socialist-workers', 'Socialist Workers Party'],
  ['TX', 'taxpayers', 'Taxpayers'],
  ['TWR', 'taxpayers-without-representation', 'Taxpayers Without Representation'],
  ['TEA', 'tea', 'Tea Party'],
  ['THD', 'theo-democratic', 'Theo-Democratic'],
  ['LAB', 'us-labor', 'U.S. Labor Party'],
  ['USP', 'us-peoples', "U.S. People's Party"],
  ['UST', 'us-taxpayers', 'U.S. Taxpayers Party'],
  ['UC', 'united-citizen', 'United Citizen'],
  ['UNI', 'united', 'United Party'],
  ['VET', 'veterans', 'Veterans Party'],
  ['WTP', 'we-the-people', 'We the People'],
];

/** FEC codes that say "no party": the candidate's party is null. */
const NO_PARTY = ['NNE', 'NON', 'NPA', 'NOP', 'N', 'UN'];
/** FEC codes that say nothing usable about the party (unknown, other, write-in): no claim. */
const UNSTATED = ['UNK', 'OTH', 'W'];

const BY_CODE: ReadonlyMap<string, PartyStatement> = new Map<string, PartyStatement>([
  ...PARTIES.map(([code, key, name]): [string, PartyStatement] => [code, { party: { key, name, abbreviation: code } }]),
  ...NO_PARTY.map((code): [string, PartyStatement] => [code, { none: true }]),
  ...UNSTATED.map((code): [string, PartyStatement] => [code, { unstated: true }]),
]);

/** What an FEC party code says; undefined for a code the FEC does not publish. */
export function fecParty(code: string): PartyStatement | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

/** Party names other sources write, mapped onto the FEC's parties. */
const NAME_ALIASES: Readonly<Record<string, string>> = {
  democrat: 'DEM',
  democratic: 'DEM',
  'democratic party': 'DEM',
  republican: 'REP',
  'republican party': 'REP',
  independent: 'IND',
  libertarian: 'LIB',
  green: 'GRE',
  federalist: 'FED',
};

/**
 * The party a name such as congress-legislators' `Democrat` means: an FEC party when the
 * name is one of theirs, else a party keyed by the name itself (`Whig` → `party:whig`).
 * `no party`, `none`, `nonpartisan`, `unaffiliated` say "none".
 */
export function partyByName(name: string): PartyStatement {
  const text = name.trim().replace(/\s+/g, ' ');
  const lower = text.toLowerCase();
  if (['no party', 'none', 'nonpartisan', 'unaffiliated', 'no party affiliation'].includes(lower))
    return { none: true };
  const code = NAME_ALIASES[lower];
  const known = code === undefined ? undefined : BY_CODE.get(code);
  if (known !== undefined) return known;
  const key = slugKey(text.replace(/\bparty\b/i, ''));
  return key === '' ? { unstated: true } : { party: { key, name: text, abbreviation: '' } };
}

export function partySlug(p: PartyInfo): string {
  return slug('party', p.key);
}

/** A party node; parties are national, outside any state or tier scope. */
export function partyDraft(p: PartyInfo): PlainDraft<'party'> {
  return {
    kind: 'party',
    slug: partySlug(p),
    state: '',
    tier: '',
    data: { name: p.name, abbreviation: p.abbreviation },
  };
}
