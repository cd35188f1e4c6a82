import { partyByName, partySlug, type PartyInfo } from '../shared/index.js';

/** MEDSL party labels that say "no party" or "not stated" rather than naming a party. */
const NO_PARTY = new Set([
  '',
  'NA',
  'NONPARTISAN',
  'NON-PARTISAN',
  'UNAFFILIATED',
  'NON-AFFILIATED',
  'NO PARTY',
  'NO PARTY AFFILIATION',
  'INDEPENDENT CANDIDATES',
  'BY PETITION',
  'PETITIONING CANDIDATE',
  'WRITE-IN',
  'WRITE IN',
  'WI',
  '(W/I)',
  'INDEPENDENT (WRITE-IN)',
  'OTHER',
  'OTHER CANDIDATES',
  'PARTY',
]);

/**
 * The party slug of a MEDSL row, '' for none. `party_simplified` settles the majors (it
 * folds `DFL`, `DEMOCRATIC-NPL`, `GOP`, … into DEMOCRAT / REPUBLICAN) and nonpartisan
 * rows; other parties are named by `party_detailed` through the shared party names, so
 * `GREEN` is the FEC's `party:green` and `AMERICAN SOLIDARITY` `party:american-solidarity`.
 */
export function medslPartySlug(detailed: string, simplified: string): string {
  const party = medslParty(detailed, simplified);
  return party === undefined ? '' : partySlug(party);
}

/** The party a MEDSL row names, as medslPartySlug reads it; undefined for none. */
export function medslParty(detailed: string, simplified: string): PartyInfo | undefined {
  if (simplified === 'DEMOCRAT') return byName('Democratic');
  if (simplified === 'REPUBLICAN') return byName('Republican');
  if (simplified === 'LIBERTARIAN') return byName('Libertarian');
  if (simplified === 'NONPARTISAN' || NO_PARTY.has(detailed)) return undefined;
  return byName(detailed);
}

function byName(name: string): PartyInfo | undefined {
  const statement = partyByName(name);
  return 'party' in statement ? statement.party : undefined;
}
