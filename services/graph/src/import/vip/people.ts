import type { PlainDraft } from '../../domain/drafts.js';
import { slug, slugKey } from '../../model/slugs.js';
import { isDangling, type FeedElement, type FeedIndex } from './feed-index.js';
import { externalId, intl, text } from './xml.js';

export interface PersonName {
  /** Given, middle, family names and suffix: `Barack H. Obama`. */
  display: string;
  given: string | null;
  family: string | null;
  /** The Person element, when the candidate names one. */
  person: FeedElement | undefined;
}

/**
 * A candidate's name: the Person it names (First, Middle, Last, Suffix), else its
 * BallotName (which may hold nicknames, `R. Steven /Steve/ Landes`).
 */
export function personName(candidate: FeedElement, index: FeedIndex): PersonName | { problem: string } {
  const personId = text(candidate.el, 'PersonId');
  if (personId !== undefined) {
    const person = index.resolve(candidate, 'PersonId', personId, ['Person']);
    if (isDangling(person)) return person;
    const given = [text(person.el, 'FirstName'), text(person.el, 'MiddleName')]
      .filter((p) => p !== undefined)
      .join(' ');
    const family = text(person.el, 'LastName');
    const display = [given, family, text(person.el, 'Suffix')].filter((p) => p !== undefined && p !== '').join(' ');
    if (slugKey(display) !== '') return { display, given: given === '' ? null : given, family: family ?? null, person };
  }
  const ballot = intl(candidate.el, 'BallotName');
  if (ballot === undefined || slugKey(ballot) === '')
    return { problem: `${candidate.label}: no BallotName and no Person name to call the candidate by` };
  return { display: ballot, given: null, family: null, person: undefined };
}

/**
 * The person node of a candidate. People the legislators or FEC importers know (by a
 * bioguide or FEC id in the feed) are referenced by their slug; others are keyed by the
 * feed and the VIP id of their Person (or Candidate), stable across re-imports of one
 * source's feeds, never by name alone, which would merge namesakes.
 */
export function personDraft(
  name: PersonName,
  candidate: FeedElement,
  feedKey: string,
  state: string,
): PlainDraft<'person'> {
  const el = name.person?.el;
  const bioguide = el === undefined ? undefined : externalId(el, 'bioguide');
  const fec = el === undefined ? undefined : externalId(el, 'fec');
  const ids: Record<string, string[]> = {};
  if (bioguide !== undefined) ids.bioguide = [bioguide];
  if (fec !== undefined) ids.fec = [fec];
  const key =
    bioguide !== undefined
      ? `bioguide-${slugKey(bioguide)}`
      : fec !== undefined
        ? `fec-${slugKey(fec)}`
        : `vip-${feedKey}-${slugKey((name.person ?? candidate).id)}`;
  const draft: PlainDraft<'person'> = {
    kind: 'person',
    slug: slug('person', key),
    state,
    tier: '',
    data: {
      name: name.display,
      givenName: name.given,
      familyName: name.family,
      ids,
      birthday: el === undefined ? null : (text(el, 'DateOfBirth') ?? null),
      gender: el === undefined ? null : (text(el, 'Gender') ?? null),
    },
  };
  return bioguide !== undefined || fec !== undefined ? { ...draft, createOnly: true } : draft;
}
