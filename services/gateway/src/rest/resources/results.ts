import type { ContestResultsResponse } from '@civicgraph/protos/civic/results/v1/results';
import { nullable, object, orNull, ref, type JsonSchema } from '../schema/json-schema.js';

export const schemas: Record<string, JsonSchema> = {
  ChoiceResult: object({
    choice: { type: 'string', description: "A candidate's name as the source wrote it, or `YES` / `NO`." },
    candidacy: nullable({ type: 'string', pattern: '^candidacy:' }),
    party: nullable({
      type: 'string',
      description: 'The party as the returns name it (e.g. `Democratic Party`, `DEM`); null when they name none.',
    }),
    votes: { type: 'integer', minimum: 0 },
    vote_share: nullable({
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'votes / total_votes; null when the total is unknown.',
    }),
    winner: nullable({ type: 'boolean' }),
  }),
  ContestResults: object(
    {
      contest: { type: 'string', pattern: '^contest:' },
      certified: { type: 'boolean', description: 'Every row comes from certified (official) returns.' },
      total_votes: nullable({ type: 'integer', minimum: 0 }),
      provenance: { type: 'array', items: { type: 'string', pattern: '^provenance:' } },
      data: { type: 'array', items: ref('ChoiceResult'), description: 'Most votes first.' },
      next_cursor: { type: 'null' },
    },
    [],
    'Certified results of one contest.',
  ),
};

export function resultsView(r: ContestResultsResponse) {
  return {
    contest: r.contest,
    certified: r.certified,
    total_votes: r.totalVotes === undefined ? null : Number(r.totalVotes),
    provenance: r.provenance,
    data: r.results.map((c) => ({
      choice: c.choice,
      candidacy: orNull(c.candidacy),
      party: orNull(c.party),
      votes: Number(c.votes),
      vote_share: c.share ?? null,
      winner: c.winner ?? null,
    })),
    next_cursor: null,
  };
}
