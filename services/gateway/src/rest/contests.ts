import { contactVisible } from '@civicgraph/kit';
import type { Endpoint } from './endpoint.js';
import { LIST_PARAMS, listBody, pageOf, str } from './list.js';
import { contestSummaryView, contestView } from './resources/contest.js';
import { P } from './schema/params.js';

export const CONTEST_ENDPOINTS = {
  list: {
    operationId: 'listContests',
    path: '/v1/contests',
    tag: 'Contests',
    summary: 'Contests in a state',
    description:
      'Contests in a state, optionally of one level and on one election day, soonest first. Candidacies are not listed here; fetch a contest for them.',
    params: [
      P.state(true),
      P.level,
      { ...P.date('Election day'), description: 'Election day (YYYY-MM-DD); default every day.' },
      ...LIST_PARAMS,
    ],
    response: 'ContestList',
    cache: 'candidacy',
    errors: ['invalid_parameter'],
    answer:
      ({ graph }) =>
      async (params, principal) => {
        const page = await graph.listContests(principal, {
          state: str(params, 'state'),
          level: str(params, 'level'),
          date: str(params, 'date'),
          minConfidence: params['min_confidence'] as number,
          page: pageOf(params),
        });
        return listBody(page.data.map(contestSummaryView), page.nextCursor);
      },
  },
  get: {
    operationId: 'getContest',
    path: '/v1/contests/{slug}',
    tag: 'Contests',
    summary: 'One contest with its candidacies',
    description:
      "A contest, its office and region, and its candidacies (highest confidence first). A contest outside the key's scope is a 404, the same as one that does not exist.",
    params: [P.slug('contest', 'contest:co-cd-1-us-representative-2026-general'), P.minConfidence, P.singlePageCursor],
    response: 'Contest',
    cache: 'candidacy',
    errors: ['invalid_parameter', 'not_found'],
    answer:
      ({ graph }) =>
      async (params, principal) => {
        const contest = await graph.getContest(principal, str(params, 'slug'), params['min_confidence'] as number);
        return contestView(contest, contactVisible(principal));
      },
  },
} satisfies Record<string, Endpoint>;
