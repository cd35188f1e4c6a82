import type { CandidacyDraft, NodeDraft } from '../../domain/drafts.js';
import type { BallotAccess, EdgeDoc, FilingStatus } from '../../model/nodes.js';
import { candidacySlug, slugKey } from '../../model/slugs.js';
import { edge } from '../shared/index.js';
import type { ContestPlan } from './contests.js';
import { isDangling, type FeedElement, type FeedIndex } from './feed-index.js';
import type { PartyPlan } from './parties.js';
import { personDraft, personName } from './people.js';
import { attr, bool, child, idRefs, intl, nodes, text, textOf, texts, type El } from './xml.js';

export interface CandidacyContext {
  index: FeedIndex;
  parties: ReadonlyMap<string, PartyPlan | { problem: string }>;
  /** Slug of the feed's provenance record, which the claims cite. */
  provenance: string;
  /** Key of the feed in person slugs: `51`, `04013`. */
  feedKey: string;
}

/** The Candidate elements a contest's ballot lists, or why one cannot be found. */
export function candidatesOf(plan: ContestPlan, index: FeedIndex): (FeedElement | { problem: string })[] {
  const fe = plan.fe;
  if (fe.type === 'RetentionContest') {
    const id = text(fe.el, 'CandidateId');
    return id === undefined ? [] : [index.resolve(fe, 'CandidateId', id, ['Candidate'])];
  }
  const found: (FeedElement | { problem: string })[] = [];
  for (const id of idRefs(fe.el, 'BallotSelectionIds')) {
    const selection = index.resolve(fe, 'BallotSelectionIds', id, [
      'CandidateSelection',
      'BallotMeasureSelection',
      'PartySelection',
    ]);
    if (isDangling(selection)) found.push(selection);
    else if (selection.type === 'CandidateSelection') {
      for (const cid of idRefs(selection.el, 'CandidateIds'))
        found.push(index.resolve(selection, 'CandidateIds', cid, ['Candidate']));
    }
  }
  return found;
}

/**
 * One candidate's candidacy in a contest, with the person and party it names and the
 * contest's own drafts (so the batch stands alone). The feed's claims: name (the ballot
 * name), person, contest, party (null for a "no party" Party; none when no PartyId),
 * incumbency, filing and ballot status, campaign website, emails and phones.
 */
export function candidacyDrafts(
  candidate: FeedElement,
  plan: ContestPlan,
  ctx: CandidacyContext,
): { nodes: NodeDraft[]; edges: EdgeDoc[]; slug: string } | { problem: string } {
  const name = personName(candidate, ctx.index);
  if ('problem' in name) return name;
  const party = partyOf(candidate, ctx);
  if ('problem' in party) return party;
  const state = plan.draft.state;
  const person = personDraft(name, candidate, ctx.feedKey, state);
  const slug = candidacySlug(plan.draft.slug.slice('contest:'.length), slugKey(name.display));
  const claims: CandidacyDraft['claims'] = {
    name: intl(candidate.el, 'BallotName') ?? name.display,
    person: person.slug,
    contest: plan.draft.slug,
    ...(party.slug === undefined ? {} : { party: party.slug }),
    ...statusClaims(candidate.el, party.writeIn),
    ...contactClaims(candidate.el),
  };
  const incumbent = bool(candidate.el, 'IsIncumbent');
  if (incumbent !== undefined) claims.isIncumbent = incumbent;
  const candidacy: CandidacyDraft = {
    kind: 'candidacy',
    slug,
    state,
    tier: plan.draft.tier,
    claims,
    provenance: ctx.provenance,
  };
  const partyDraft = party.draft === undefined ? [] : [party.draft];
  const nodes: NodeDraft[] = [...plan.nodes, plan.draft, ...partyDraft, person, candidacy];
  const edges = [
    ...plan.edges,
    edge('FOR_CONTEST', slug, plan.draft.slug),
    edge('OF_PERSON', slug, person.slug),
    ...partyDraft.map((p) => edge('OF_PARTY', slug, p.slug)),
  ];
  return { nodes, edges, slug };
}

type PartyOf = { slug?: string | null; draft?: NodeDraft & { kind: 'party' }; writeIn: boolean };

/** The candidate's party claim: a party slug, null for "no party", absent when the feed names none. */
function partyOf(candidate: FeedElement, ctx: CandidacyContext): PartyOf | { problem: string } {
  const id = text(candidate.el, 'PartyId');
  if (id === undefined) return { writeIn: false };
  const found = ctx.index.resolve(candidate, 'PartyId', id, ['Party']);
  if (isDangling(found)) return { problem: `${found.problem} (unknown party)` };
  const plan = ctx.parties.get(id);
  if (plan === undefined || 'problem' in plan)
    return {
      problem: `${candidate.label}: its Party ${id} is not imported${plan === undefined ? '' : ` (${plan.problem})`}`,
    };
  return plan.draft === undefined
    ? { slug: null, writeIn: plan.writeIn }
    : { slug: plan.draft.slug, draft: plan.draft, writeIn: plan.writeIn };
}

const PRE: Readonly<Record<string, { filingStatus?: FilingStatus; ballotAccess?: BallotAccess }>> = {
  filed: { filingStatus: 'FILED' },
  qualified: { filingStatus: 'QUALIFIED', ballotAccess: 'ON_BALLOT' },
  withdrawn: { filingStatus: 'WITHDRAWN' },
  'write-in': { ballotAccess: 'WRITE_IN' },
};

/**
 * Filing and ballot status from PreElectionStatus (filed, qualified, withdrawn, write-in)
 * and PostElectionStatus (withdrawn; a winner or runoff finisher was on the ballot). A
 * candidate on a feed's ballot with no status is ON_BALLOT (a VIP feed lists what voters
 * see), WRITE_IN when its party is a write-in party; a withdrawn candidate's ballot
 * access is left unsaid.
 */
function statusClaims(el: El, writeInParty: boolean): { filingStatus?: FilingStatus; ballotAccess?: BallotAccess } {
  const pre = PRE[(text(el, 'PreElectionStatus') ?? '').toLowerCase()] ?? {};
  const post = (text(el, 'PostElectionStatus') ?? '').toLowerCase();
  const filingStatus = post === 'withdrawn' ? 'WITHDRAWN' : pre.filingStatus;
  const withdrawn = filingStatus === 'WITHDRAWN';
  const ballotAccess = pre.ballotAccess ?? (withdrawn ? undefined : writeInParty ? 'WRITE_IN' : 'ON_BALLOT');
  return {
    ...(filingStatus === undefined ? {} : { filingStatus }),
    ...(ballotAccess === undefined ? {} : { ballotAccess }),
  };
}

const SOCIAL = /facebook|twitter|instagram|youtube|linkedin|tiktok|x\.com|flickr|social/i;

/** The campaign's website (an untagged Uri, not a social network), emails and phones. */
function contactClaims(el: El): { campaignWebsite?: string; campaignEmails?: string[]; campaignPhones?: string[] } {
  const contact = child(el, 'ContactInformation');
  if (contact === undefined) return {};
  const website = nodes(contact, 'Uri').find((u) => {
    const tag = typeof u === 'object' && u !== null ? (attr(u as El, 'annotation') ?? '') : '';
    return !SOCIAL.test(tag) && !SOCIAL.test(textOf(u)) && textOf(u) !== '';
  });
  const emails = texts(contact, 'Email');
  const phones = texts(contact, 'Phone');
  return {
    ...(website === undefined ? {} : { campaignWebsite: textOf(website) }),
    ...(emails.length === 0 ? {} : { campaignEmails: emails }),
    ...(phones.length === 0 ? {} : { campaignPhones: phones }),
  };
}
