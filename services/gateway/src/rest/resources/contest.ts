import type { Contest, Office, RegionRef } from '@civicgraph/protos/civic/graph/v1/graph';
import { nullable, object, orNull, ref, str, type JsonSchema } from '../schema/json-schema.js';
import { candidacyView } from './candidacy.js';

export const CONTEST_TYPES = ['general', 'primary', 'special', 'runoff', 'recall', 'retention'] as const;

/** What a contest says of itself, in lists and in full (the Contest adds its candidacies and choices). */
const CONTEST_PROPERTIES: Record<string, JsonSchema> = {
  slug: { type: 'string', pattern: '^contest:', description: '`contest:<region-key>-<office-key>-<year>-<type>`.' },
  name: str('Display name of the contest.'),
  office: str("The office's display name."),
  office_slug: nullable({
    type: 'string',
    pattern: '^office:',
    description: 'The office the contest fills; null for a ballot measure, which fills none.',
  }),
  date: nullable({
    type: 'string',
    format: 'date',
    description: 'Election day; null while it is not known (a nomination contest the FEC registrations name).',
  }),
  type: { type: 'string', enum: CONTEST_TYPES },
  level: str('Level of the region the office serves, e.g. `congressional-district`.'),
  region: ref('RegionRef'),
  state: nullable(str('Lowercase USPS code; null for national contests.')),
  seats: { type: 'integer', minimum: 1, description: 'Seats to fill.' },
  special: { type: 'boolean', description: 'A special election (a vacancy).' },
};

export const schemas: Record<string, JsonSchema> = {
  RegionRef: object({
    slug: { type: 'string', pattern: '^region:' },
    name: str('Display name.'),
    level: str("The region's level, e.g. `state`."),
    fips: nullable(str('Census FIPS / GEOID.')),
    ocd_id: nullable(str('Open Civic Data division id.')),
  }),
  ContestSummary: object(CONTEST_PROPERTIES, [], 'A contest as lists show it (without its candidacies).'),
  Contest: object(
    {
      ...CONTEST_PROPERTIES,
      candidacies: {
        type: 'array',
        items: ref('Candidacy'),
        description:
          'Highest confidence first. On a ballot, only those whose ballot access is established (ON_BALLOT, WRITE_IN): empty there when no source held (certified returns, an official candidate list, a VIP feed) lists who is on this ballot yet. The contest is held; who runs in it is not known here, which is not to say no one does.',
      },
      choices: {
        type: 'array',
        items: object({
          label: str('`Yes` or `No`.'),
          result: { type: 'string', pattern: '^result:', description: "The option's certified result." },
        }),
        description: "A ballot question's or retention's options; empty for a candidate contest, and outside a ballot.",
      },
    },
    [],
    'A contest with its candidacies.',
  ),
};

export function regionRefView(r: RegionRef | undefined) {
  return {
    slug: r?.slug ?? '',
    name: r?.name ?? '',
    level: r?.level ?? '',
    fips: orNull(r?.fips),
    ocd_id: orNull(r?.ocdId),
  };
}

const officeName = (o: Office | undefined) => o?.name ?? '';

/** A contest as lists show it. */
export function contestSummaryView(c: Contest) {
  return {
    slug: c.slug,
    name: c.name,
    office: officeName(c.office),
    office_slug: orNull(c.office?.slug),
    date: orNull(c.date),
    type: c.type,
    level: c.level,
    region: regionRefView(c.region),
    state: orNull(c.state),
    seats: c.seats,
    special: c.special,
  };
}

/** A contest with its candidacies (contact fields per `showContact`). */
export function contestView(c: Contest, showContact: boolean) {
  return {
    ...contestSummaryView(c),
    candidacies: c.candidacies.map((x) => candidacyView(x, showContact)),
    choices: c.choices.map((x) => ({ label: x.label, result: x.result })),
  };
}
