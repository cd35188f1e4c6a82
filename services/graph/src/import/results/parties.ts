import { partyByName, partySlug } from '../shared/index.js';

/** MEDSL party labels that say "no party" or "not stated" rather than naming a party. */
const NO_PARTY = new Set([
  '', 'NA', 'NONPARTISAN', 'NON-PARTISAN', 'UNAFFILIATED', 'NON-AFFILIATED', 'NO PARTY', 'NO PARTY AFFILIATION', 'INDEPENDENT CANDIDATES',
  'BY PETITION', 'PETITIONING CANDIDATE', 'WRITE-IN', 'WRITE IN', 'WI', '(W/I)', 'INDEPENDENT (WRITE-IN)', 'OTHER', 'OTHER CANDIDATES', 'PARTY',
]);

/**
 * The party slug of a MEDSL row, '' for none. `party_simplified` settles the majors (it
 * folds `DFL`, `DEMOCRATIC-NPL`, `GOP`, … into DEMOCRAT / REPUBLICAN) and nonpartisan
 * rows; other parties are named by `party_detailed` through the shared party names, so
 * `GREEN` is the FEC's `party:green` and `AMERICAN SOLIDARITY` `party:american-solidarity`.
 */
export function medslPartySlug(detailed: string, simplified: string): string {
  if (simplified === 'DEMOCRAT') return byName('Democratic');
  if (simplified === 'REPUBLICAN') return byName('Republican');
  if (simplified === 'LIBERTARIAN') return byName('Libertarian');
  if (simplified === 'NONPARTISAN' || NO_PARTY.has(detailed)) return '';
  return byName(detailed);
}

function byName(name: string): string {
  const statement = partyByName(name);
  return 'party' in statement ? partySlug(statement.party) : '';
}
