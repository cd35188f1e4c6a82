import type { PlainDraft } from '../../domain/drafts.js';
import { partyByName, partyDraft, type PartyStatement } from '../shared/index.js';
import type { FeedElement } from './feed-index.js';
import { bool, intl, text } from './xml.js';

/** What a Party element says: a party node, or that its candidates have no party. */
export interface PartyPlan {
  /** The party node; undefined when the feed's "party" means none (`Party Preference: None`). */
  draft: PlainDraft<'party'> | undefined;
  /** True for write-in parties (`IsWriteIn`): their candidates are write-ins. */
  writeIn: boolean;
}

const NONE = /^(party preference:\s*none|no party( preference| affiliation)?|nonpartisan|unaffiliated|none)$/i;

/**
 * A Party element as a party node, named through the shared party names so `Democratic`
 * is the FEC's `party:democratic`; parties the FEC does not list keep the feed's name and
 * abbreviation.
 */
export function partyPlan(fe: FeedElement): PartyPlan | { problem: string } {
  const name = intl(fe.el, 'Name') ?? text(fe.el, 'Abbreviation');
  if (name === undefined) return { problem: `${fe.label}: a Party needs a Name or an Abbreviation` };
  const writeIn = bool(fe.el, 'IsWriteIn') === true;
  const statement: PartyStatement = NONE.test(name) ? { none: true } : partyByName(name);
  if (!('party' in statement)) return { draft: undefined, writeIn };
  const info =
    statement.party.abbreviation === ''
      ? { ...statement.party, abbreviation: text(fe.el, 'Abbreviation') ?? '' }
      : statement.party;
  return { draft: partyDraft(info), writeIn };
}
