import { isIsoDate, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import { isContestType, type ContestType } from '../../model/kinds.js';
import { electionSlug } from '../../model/slugs.js';
import { isDangling, type FeedElement, type FeedIndex } from './feed-index.js';
import { stateOfElement } from './feed-state.js';
import { intl, text } from './xml.js';

export interface ElectionPlan {
  draft: PlainDraft<'election'>;
  state: StateInfo;
  date: string;
  year: number;
  type: ContestType;
}

const TYPE_WORDS: readonly (readonly [RegExp, ContestType])[] = [
  [/runoff|run-off/i, 'runoff'],
  [/recall/i, 'recall'],
  [/special/i, 'special'],
  [/primary|caucus/i, 'primary'],
  [/general|consolidated|municipal/i, 'general'],
];

/** `General`, `GENERAL`, `Special Primary` → a contest type; general when the feed does not say. */
export function electionType(words: string | undefined): ContestType {
  if (words === undefined) return 'general';
  const lower = words.trim().toLowerCase();
  if (isContestType(lower)) return lower;
  return TYPE_WORDS.find(([re]) => re.test(lower))?.[1] ?? 'general';
}

/**
 * The feed's Election (a VIP feed describes one): `election:<state>-<date>`, its name,
 * day and type. Its state is the one its StateId names, else the feed's.
 */
export function electionPlan(index: FeedIndex, feedState: StateInfo | undefined): ElectionPlan | { problem: string } {
  const elections = index.ofType('Election');
  const fe = elections[0];
  if (fe === undefined) return { problem: 'the feed has no Election element: contests cannot be dated' };
  const state = stateOf(index, fe) ?? feedState;
  if (state === undefined) return { problem: `${fe.label}: no state (no StateId naming a State the importer knows)` };
  const date = text(fe.el, 'Date') ?? '';
  if (!isIsoDate(date)) return { problem: `${fe.label}: Date "${date}" is not a YYYY-MM-DD date` };
  const type = electionType(intl(fe.el, 'ElectionType'));
  const year = Number(date.slice(0, 4));
  const name = intl(fe.el, 'Name') ?? `${year} ${state.name} ${type} election`;
  return {
    draft: {
      kind: 'election',
      slug: electionSlug(state.usps, date),
      state: state.usps,
      tier: '',
      data: { name, date, type },
    },
    state,
    date,
    year,
    type,
  };
}

function stateOf(index: FeedIndex, fe: FeedElement): StateInfo | undefined {
  const ref = text(fe.el, 'StateId');
  if (ref === undefined) return undefined;
  const found = index.resolve(fe, 'StateId', ref, ['State']);
  return isDangling(found) ? undefined : stateOfElement(found.el);
}
