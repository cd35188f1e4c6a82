import type { ContactLink, ContactOffice, Officeholder } from '@civicgraph/protos/civic/graph/v1/graph';
import { CONTACT_FIELDS as POLICY_CONTACT_FIELDS } from '@civicgraph/kit';
import { nullable, object, orNull, ref, str, type JsonSchema } from '../schema/json-schema.js';

/** `contactOffices` → `contact_offices`. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The officeholder fields only keys with the `contact` entitlement ever see (the policy's list, in REST's words). */
export const OFFICEHOLDER_CONTACT_FIELDS: readonly string[] = POLICY_CONTACT_FIELDS.officeholder.map(snakeCase);

const ONLY_WITH_CONTACT = 'Only for keys with the `contact` entitlement; absent otherwise.';

export const schemas: Record<string, JsonSchema> = {
  ContactOffice: object(
    {
      kind: nullable(str("The source's classification of the office: `capitol`, `district`, `primary`.")),
      address: nullable(str('Postal address, as the source writes it.')),
      voice: nullable(str('Phone number.')),
      fax: nullable(str('Fax number.')),
    },
    [],
    'An office where an officeholder can be reached.',
  ),
  ContactLink: object(
    {
      url: { type: 'string', format: 'uri' },
      note: nullable(str('What the link is, e.g. `homepage`.')),
    },
    [],
    'A web address about an officeholder.',
  ),
  Officeholder: object(
    {
      person: { type: 'string', description: "The officeholder's name." },
      person_slug: { type: 'string', pattern: '^person:' },
      office: { type: 'string', description: "The office's display name." },
      office_slug: { type: 'string', pattern: '^office:' },
      level: { type: 'string', description: 'Level of the region the office serves.' },
      region: nullable({ type: 'string', pattern: '^region:' }),
      party: nullable({ type: 'string' }),
      party_slug: nullable({ type: 'string', pattern: '^party:' }),
      term_start: nullable({
        type: 'string',
        format: 'date',
        description: 'First day of the term; null when the source does not say.',
      }),
      term_end: nullable({
        type: 'string',
        format: 'date',
        description: 'Last day of the term (scheduled, or the day it ended); null when open.',
      }),
      contact_offices: {
        type: 'array',
        items: ref('ContactOffice'),
        description: `Offices (address, voice, fax). ${ONLY_WITH_CONTACT}`,
      },
      contact_emails: { type: 'array', items: { type: 'string', format: 'email' }, description: ONLY_WITH_CONTACT },
      contact_links: {
        type: 'array',
        items: ref('ContactLink'),
        description: `Homepages and web forms. ${ONLY_WITH_CONTACT}`,
      },
    },
    OFFICEHOLDER_CONTACT_FIELDS,
    'Who holds an office, for which term.',
  ),
};

const officeView = (o: ContactOffice) => ({
  kind: orNull(o.kind),
  address: orNull(o.address),
  voice: orNull(o.voice),
  fax: orNull(o.fax),
});
const linkView = (l: ContactLink) => ({ url: l.url, note: orNull(l.note) });

/**
 * REST shape of an officeholder. The contact fields are added only when `showContact`
 * (the policy's answer for the caller) and the graph service sent them; otherwise they are
 * absent, not null, as a candidacy's are.
 */
export function officeholderView(o: Officeholder, showContact: boolean) {
  return {
    person: o.person?.name ?? '',
    person_slug: o.person?.slug ?? '',
    office: o.office?.name ?? '',
    office_slug: o.office?.slug ?? '',
    level: o.office?.level ?? '',
    region: orNull(o.office?.region),
    party: orNull(o.party?.name),
    party_slug: orNull(o.party?.slug),
    term_start: orNull(o.start),
    term_end: orNull(o.end),
    ...(showContact && o.contactIncluded
      ? {
          contact_offices: o.contactOffices.map(officeView),
          contact_emails: o.contactEmails,
          contact_links: o.contactLinks.map(linkView),
        }
      : {}),
  };
}
