import type { Officeholder } from '@civicgraph/protos/civic/graph/v1/graph';
import { nullable, object, orNull, type JsonSchema } from '../schema/json-schema.js';


export const schemas: Record<string, JsonSchema> = {
  Officeholder: object({
    person: { type: 'string', description: 'The officeholder\'s name.' },
    person_slug: { type: 'string', pattern: '^person:' },
    office: { type: 'string', description: 'The office\'s display name.' },
    office_slug: { type: 'string', pattern: '^office:' },
    level: { type: 'string', description: 'Level of the region the office serves.' },
    region: nullable({ type: 'string', pattern: '^region:' }),
    party: nullable({ type: 'string' }),
    party_slug: nullable({ type: 'string', pattern: '^party:' }),
    term_start: nullable({ type: 'string', format: 'date' }),
    term_end: nullable({ type: 'string', format: 'date', description: 'Scheduled end of the term; null when open.' }),
  }, [], 'Who holds an office, for which term.'),
};

export function officeholderView(o: Officeholder) {
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
  };
}
