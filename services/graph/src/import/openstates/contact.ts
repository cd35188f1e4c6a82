import type { ContactLink, ContactOffice, PersonData } from '../../model/nodes.js';
import type { OpenStatesPerson } from './person-record.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isWebUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A person's contact fields, and what was left out and why. */
export interface ContactOutcome {
  fields: Pick<PersonData, 'contactOffices' | 'contactEmails' | 'contactLinks'>;
  /** Values that are not what they claim to be (an email without a domain, a link that is not a web address). */
  problems: string[];
}

/**
 * The person's offices, emails and links as contact fields (see PersonData): repeats
 * dropped (Open States lists some links twice), order kept. An email or link that is not
 * one is left out and reported, so every API layer can promise the format it declares.
 */
export function contactOf(p: OpenStatesPerson): ContactOutcome {
  const problems: string[] = [];
  const emails = valid(
    unique(p.emails, (e) => e.toLowerCase()),
    (e) => EMAIL.test(e),
    (e) => `email "${e}" is not an email address: left out`,
    problems,
  );
  const links = valid(
    unique(p.links, (l) => l.url),
    (l) => isWebUrl(l.url),
    (l) => `link "${l.url}" is not an http(s) URL: left out`,
    problems,
  );
  const offices = unique(p.offices, (o) => JSON.stringify([o.kind, o.address, o.voice, o.fax]));
  const fields: ContactOutcome['fields'] = {};
  if (offices.length > 0) fields.contactOffices = offices.map((o): ContactOffice => ({ ...o }));
  if (emails.length > 0) fields.contactEmails = emails;
  if (links.length > 0) fields.contactLinks = links.map((l): ContactLink => ({ ...l }));
  return { fields, problems };
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(key(i)) && Boolean(seen.add(key(i))));
}

/** The items that pass `ok`; each other one adds its problem. */
function valid<T>(
  items: readonly T[],
  ok: (item: T) => boolean,
  problem: (item: T) => string,
  problems: string[],
): T[] {
  return items.filter((item) => {
    if (ok(item)) return true;
    problems.push(problem(item));
    return false;
  });
}
