import type { CandidacyDraft, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { slugKey } from '@civicgraph/kit';
import { candidacySlug, slug } from '../../model/slugs.js';
import { edge, partyDraft } from '../shared/index.js';
import type { PersonMatch } from '../shared/person-match.js';
import type { ChoiceTotal } from './tally.js';

/** Names a person by the office's people, or undefined when none matches. */
export type PersonMatcher = (name: string) => PersonMatch | undefined;

/** What a certified candidate row drafts: its person (unless matched), party, candidacy and their edges. */
export interface CandidacyDrafts {
  nodes: NodeDraft[];
  edges: EdgeDoc[];
  candidacy: string;
}

/**
 * The candidacy certified returns establish: the candidate was on this contest's ballot
 * (ON_BALLOT; a write-in, WRITE_IN) and so had qualified (QUALIFIED). The person is the one
 * another source already ties to the office when the name matches (`match`, recorded with
 * its rule and confidence on the OF_PERSON edge); otherwise a person of the results'
 * own, `person:<office region key>-<name key>` (`person:co-cd-1-diana-degette`), so the
 * same candidate in the same seat is one person across elections.
 */
export function candidacyDrafts(
  c: ChoiceTotal & { choice: { kind: 'candidate'; person: string } },
  contest: { slug: string; key: string; state: string; tier: CandidacyDraft['tier'] },
  officeRegionKey: string,
  provenance: string,
  match: PersonMatcher,
): CandidacyDrafts {
  const name = displayName(c.choice.person);
  const { matched, head } = ticketPerson(c.choice.person, match);
  const person = matched?.slug ?? slug('person', `${officeRegionKey}-${slugKey(head)}`);
  const party = c.partyInfo === undefined ? undefined : partyDraft(c.partyInfo);
  const candidacy: CandidacyDraft = {
    kind: 'candidacy',
    slug: candidacySlug(contest.key, c.choice.key),
    state: contest.state,
    tier: contest.tier,
    claims: {
      name,
      person,
      contest: contest.slug,
      party: party?.slug ?? null,
      filingStatus: 'QUALIFIED',
      ballotAccess: c.writein ? 'WRITE_IN' : 'ON_BALLOT',
    },
    provenance,
  };
  const nodes: NodeDraft[] = [
    ...(matched === undefined ? [personDraft(person, displayName(head), contest.state)] : []),
    ...(party === undefined ? [] : [party]),
    candidacy,
  ];
  const edges: EdgeDoc[] = [
    edge('FOR_CONTEST', candidacy.slug, contest.slug),
    edge(
      'OF_PERSON',
      candidacy.slug,
      person,
      '',
      matched === undefined ? {} : { rule: matched.rule, confidence: matched.confidence },
    ),
    ...(party === undefined ? [] : [edge('OF_PARTY', candidacy.slug, party.slug)]),
  ];
  return { nodes, edges, candidacy: candidacy.slug };
}

/**
 * The person a candidate row names. A joint ticket (`CHERUNDA FOX / HARLAN MCVAY`,
 * `CORNEL WEST AND MELINA ABDULLAH`: a president with a running mate) is one candidacy, named as printed, but its person is one
 * of the two: the one another source ties to the office (the FEC's presidential
 * registrant: Kentucky prints `LAUREN ONAK / PETER SONSKI`, and Sonski is the one who ran
 * for president), else the first named.
 */
function ticketPerson(text: string, match: PersonMatcher): { matched: PersonMatch | undefined; head: string } {
  const names = text.split(TICKET).filter((n) => /[A-Za-z]/.test(n));
  if (names.length !== 2) return { matched: match(text), head: text };
  for (const name of names) {
    const matched = match(name);
    if (matched !== undefined) return { matched, head: name };
  }
  return { matched: undefined, head: names[0]! };
}

/** What joins a ticket's two names in the returns: `/`, `AND` or `&`. */
const TICKET = /\s*\/\s*|\s+(?:AND|and|&)\s+/;

function personDraft(slugText: string, name: string, state: string): PlainDraft<'person'> {
  const words = name.split(' ');
  return {
    kind: 'person',
    slug: slugText,
    state,
    tier: '',
    data: {
      name,
      givenName: words.length > 1 ? words[0]! : null,
      familyName: words.length > 1 ? words[words.length - 1]! : null,
      ids: {},
      birthday: null,
      gender: null,
    },
  };
}

/**
 * A name as a ballot prints it, from MEDSL's upper case: `LISA BLUNT ROCHESTER` → `Lisa
 * Blunt Rochester`, `MCBRIDE` → `McBride`, `O'DONNELL` → `O'Donnell`, `WHALEN III` →
 * `Whalen III`, `"DR MIKE"` → `"Dr Mike"`, `FOX/HARLAN` → `Fox/Harlan`, a ticket's `AND` → `and`. Capitals inside a
 * name the source lost (`DeGette`) cannot be recovered; the person's own name, when a
 * source knows it, is what answers show.
 */
export function displayName(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s\-'’("/])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase())
    .replace(/\bMc([a-z])/g, (_, c: string) => `Mc${c.toUpperCase()}`)
    .replace(/\b(Ii|Iii|Iv|Vi|Vii|Viii)\b/g, (n: string) => n.toUpperCase())
    .replace(/ And /g, ' and ');
}
