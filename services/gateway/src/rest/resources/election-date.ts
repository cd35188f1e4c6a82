import type { ElectionDate } from '@civicgraph/protos/civic/graph/v1/graph';
import { nullable, object, type JsonSchema } from '../schema/json-schema.js';
import { CONTEST_TYPES } from './contest.js';

export const schemas: Record<string, JsonSchema> = {
  ElectionDate: object(
    {
      slug: { type: 'string', pattern: '^election:' },
      name: { type: 'string' },
      date: { type: 'string', format: 'date' },
      type: { type: 'string', enum: CONTEST_TYPES },
      state: nullable({ type: 'string', description: 'Lowercase USPS code; null for a national election day.' }),
    },
    [],
    'An election day.',
  ),
};

export function electionDateView(e: ElectionDate) {
  return { slug: e.slug, name: e.name, date: e.date, type: e.type, state: e.state === '' ? null : e.state };
}
